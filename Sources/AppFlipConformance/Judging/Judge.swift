import AppFlip

/// Compares what an implementation did with what the rules call for, field by field (APPFLIP-RULES "Verdicts", "The return URL").
///
/// `judge` checks one step and gives findings at the check's own level; `findings(_:step:of:)` gives a planned
/// vector's final findings: under the endpoint's rules, capped at the vector's level, named by step.
package enum Judge {
  /// The parameters a reply may carry (AF-RE-8).
  static let replyParameters = ["code", "state", "error", "error_description"]

  /// Whether `name` is one of `replyParameters`, byte for byte: a handful of length checks, no hashing.
  static func isReplyParameter(_ name: String) -> Bool {
    replyParameters.contains { Bytes.equal($0, name) }
  }

  /// Judges one step against its preferred answer and every alternative the sources allow, and returns the findings
  /// of the best match: the fewest MUST findings, then the fewest SHOULD findings, the preferred answer first (AF-IN-8).
  ///
  /// An alternative that `warns` adds a SHOULD finding under its rule naming the preferred answer (AF-IN-9).
  package static func judge(_ step: RenderedStep, _ observation: Observation) -> [Finding] {
    let preferred = judge(step.expect, observation)
    guard !step.alternatives.isEmpty, !preferred.isEmpty else { return preferred }
    func weight(_ findings: [Finding]) -> (Int, Int) {
      (findings.count { $0.level == .must }, findings.count { $0.level == .should })
    }
    var best = preferred
    var bestWeight = weight(preferred)
    for alternative in step.alternatives {
      var findings = judge(alternative.expect, observation)
      if alternative.warns && !findings.contains(where: { $0.level == .must }) {
        findings.append(
          Finding(
            rule: alternative.rule, level: .should, field: "verdict", expected: describe(step.expect),
            actual: "\(describe(alternative.expect)): \(alternative.reading)",
            message: "Another reading the sources allow, but not the preferred one."))
      }
      let candidate = weight(findings)
      if candidate < bestWeight {
        best = findings
        bestWeight = candidate
      }
    }
    return best
  }

  /// An expectation in a few words, for a finding that names the preferred answer.
  static func describe(_ expect: RenderedExpectation) -> String {
    switch (expect.verdict, expect.reply) {
    case (.ignored, _), (_, nil): expect.verdict.rawValue
    case (_, let reply?):
      "\(expect.verdict.rawValue) (\(reply.error.map { "error=\($0.rawValue)" } ?? "code"))"
    }
  }

  /// Judges one step against one expectation.
  package static func judge(_ expect: RenderedExpectation, _ observation: Observation) -> [Finding] {
    var findings = observation.authorizationRequests.map { authorizationFindings(expect, $0) } ?? []
    switch (expect.reply, observation.opened) {
    case (nil, nil):
      break
    case (nil, let opened?):
      findings.append(
        Finding(
          rule: "AF-RU-4", level: .must, field: "opened", expected: "nothing", actual: Quoted.string(opened.url),
          message:
            "A link with a missing, duplicated or disallowed redirect_uri opens nothing, and this one opened a URL."))
    case (let reply?, nil):
      findings.append(
        Finding(
          rule: expect.verdict == .rejected ? "AF-V-2" : "AF-V-1", level: .must, field: "opened",
          expected: Quoted.string(reply.base) + " with a query", actual: "nothing",
          message: "Nothing was opened, but every result, errors included, goes back to redirect_uri."))
    case (let reply?, let opened?):
      findings += replyFindings(reply, opened)
    }
    return findings
  }

  /// Whether the handler asked for a code exactly when it should, and with what (AF-V-1, AF-V-2, AF-RU-4).
  static func authorizationFindings(_ expect: RenderedExpectation, _ requests: [AuthorizationRequest]) -> [Finding] {
    guard let expected = expect.authorization else {
      guard requests.isEmpty else {
        return [
          Finding(
            rule: expect.verdict == .ignored ? "AF-RU-4" : "AF-V-2", level: .must, field: "authorization",
            expected: "no code request", actual: describe(requests),
            message:
              "\(expect.verdict == .ignored ? "An" : "A") \(expect.verdict.rawValue) link gets no code request, and this one got one."
          )
        ]
      }
      return []
    }
    guard requests.count == 1, let actual = requests.first else {
      return [
        Finding(
          rule: "AF-V-1", level: .must, field: "authorization", expected: "exactly one code request",
          actual: describe(requests), message: oneRequestMessage(expect, requests))
      ]
    }
    var findings: [Finding] = []
    if !Bytes.equal(actual.clientID, expected.clientID) {
      findings.append(
        Finding(
          rule: "AF-IN-5", level: .must, field: "authorization.clientId", expected: Quoted.string(expected.clientID),
          actual: Quoted.string(actual.clientID), message: "The code was requested for another client id than Google's."
        ))
    }
    if !Bytes.equal(actual.redirectURI, expected.redirectURI) {
      findings.append(
        Finding(
          rule: "AF-RU-3", level: .must, field: "authorization.redirectUri",
          expected: Quoted.string(expected.redirectURI), actual: Quoted.string(actual.redirectURI),
          message: "The code was requested for another redirect_uri than the one that arrived."))
    }
    if let scopes = expected.scopes,
      scopes.count != actual.scopes.count || !zip(scopes, actual.scopes).allSatisfy({ Bytes.equal($0, $1) })
    {
      findings.append(
        Finding(
          rule: "AF-V-1", level: .should, field: "authorization.scopes", expected: Quoted.list(scopes),
          actual: Quoted.list(actual.scopes),
          message: "The code was requested for other scopes than the ones Google asked for."))
    }
    return findings
  }

  /// Checks a reply URL against the expected one (AF-RE-1 … AF-RE-9).
  static func replyFindings(_ expected: RenderedReply, _ opened: OpenedURL) -> [Finding] {
    var findings: [Finding] = []
    func add(
      _ rule: String, _ level: Level, _ field: String, _ expectedValue: String, _ actual: String, _ message: String
    ) {
      findings.append(
        Finding(rule: rule, level: level, field: field, expected: expectedValue, actual: actual, message: message))
    }
    findings += UniversalLinksOnlyCheck.findings(opened)
    let query = URLQuery(opened.url)
    if let fragment = query.fragment {
      add(
        "AF-RE-1", .must, "reply.fragment", "none", Quoted.string(String(fragment)),
        "A reply carries no fragment.")
    }
    if !Bytes.equal(query.base, expected.base[...]) {
      add(
        "AF-RE-1", .must, "reply.base", Quoted.string(expected.base), Quoted.string(String(query.base)),
        "The reply went to another URL than the very redirect_uri that arrived, byte for byte.")
    }

    // A reply has a handful of parameters: they are searched in order by name, values are compared in place, and a
    // list of values is made only for a finding.
    let parameters = query.parameters
    let names = parameters.map { $0.name ?? String($0.rawName) }  // once: the searches below are by name
    func name(_ index: Int) -> String { names[index] }
    func isNamed(_ index: Int, _ wanted: String) -> Bool {
      Bytes.equal(name(index), wanted)
    }
    func valuesNamed(_ name: String) -> [QueryParameter]? {
      var values: [QueryParameter] = []
      for index in parameters.indices where isNamed(index, name) { values.append(parameters[index]) }
      return values.isEmpty ? nil : values
    }
    // How many parameters are named `name`, and the first one's index.
    func occurrences(_ name: String) -> (count: Int, first: Int?) {
      var count = 0
      var first: Int?
      for index in parameters.indices where isNamed(index, name) {
        count += 1
        if first == nil { first = index }
      }
      return (count, first)
    }
    for index in parameters.indices where parameters[index].isAmbiguous {
      let parameter = parameters[index]
      add(
        "AF-RE-6", .should, "reply.\(name(index))",
        "an encoding RFC 3986 and form decoders read alike (+ as %2B, space as %20)",
        Quoted.string(String(parameter.raw)),
        "RFC 3986 decoding reads \(Quoted.bytes(parameter.value ?? [])) but form decoding reads \(Quoted.bytes(parameter.formValue ?? []))."
      )
    }

    func checkSingle(_ name: String, _ value: String, rule: String, absentLevel: Level) {
      checkSingle(name, shown: Quoted.bytes(Array(value.utf8)), rule: rule, absentLevel: absentLevel) {
        $0.reads(value)
      }
    }
    func checkSingle(_ name: String, _ value: [UInt8], rule: String, absentLevel: Level) {
      checkSingle(name, shown: Quoted.bytes(value), rule: rule, absentLevel: absentLevel) { $0.reads(value) }
    }
    // `shown` is the expected value for a finding, made only for one.
    func checkSingle(
      _ name: String, shown: @autoclosure () -> String, rule: String, absentLevel: Level,
      reads: (QueryParameter) -> Bool
    ) {
      let found = occurrences(name)
      guard found.count == 1, let index = found.first else {
        let values = valuesNamed(name) ?? []
        add(
          rule, values.isEmpty ? absentLevel : .must, "reply.\(name)", shown(),
          values.isEmpty ? "absent" : "\(values.count) values: " + values.map(\.display).joined(separator: ", "),
          values.isEmpty
            ? "The reply has no \(name)."
            : "\(name) appears \(values.count) times; a reply parameter appears once (RFC 6749 §3.1).")
        return
      }
      let actual = parameters[index]
      if !reads(actual) {
        add(rule, .must, "reply.\(name)", shown(), actual.display, "\(name) is not the value expected, byte for byte.")
      }
    }
    func checkAbsent(_ name: String, rule: String, level: Level, _ message: String) {
      guard let values = valuesNamed(name) else { return }
      add(rule, level, "reply.\(name)", "absent", values.map(\.display).joined(separator: ", "), message)
    }

    if let code = expected.code {
      if expected.acceptsAnyCode {
        let found = occurrences("code")
        if found.count != 1 || found.first.map({ parameters[$0].isEmptyOrBroken }) != false {
          let codes = valuesNamed("code") ?? []
          add(
            "AF-RE-2", .must, "reply.code", "one non-empty code",
            codes.isEmpty ? "absent" : codes.map(\.display).joined(separator: ", "),
            "The reply has no single non-empty code.")
        }
      } else {
        checkSingle("code", code, rule: "AF-RE-2", absentLevel: .must)
      }
      if let state = expected.stateBytes { checkSingle("state", state, rule: "AF-RE-2", absentLevel: .must) }
      checkAbsent("error", rule: "AF-RE-2", level: .must, "A success reply carries no error.")
      checkAbsent("error_description", rule: "AF-RE-8", level: .should, "A success reply carries no error_description.")
    } else if let error = expected.error {
      let found = occurrences("error")
      if found.count == 1, let index = found.first, case let value = parameters[index], !value.reads(error.rawValue) {
        let known = AppFlipErrorCode.allCases.contains { value.reads($0.rawValue) }
        add(
          known ? "AF-RE-4" : "AF-RE-3", .must, "reply.error", Quoted.string(error.rawValue), value.display,
          known
            ? "This outcome maps to \(error.rawValue)."
            : "error is none of cancelled, unrecoverable, invalid_request, access_denied.")
      } else {
        checkSingle("error", error.rawValue, rule: "AF-RE-3", absentLevel: .must)
      }
      checkAbsent("code", rule: "AF-RE-3", level: .must, "An error reply carries no code.")
      if let state = expected.stateBytes {
        checkSingle("state", state, rule: "AF-RE-5", absentLevel: .should)
      } else {
        checkAbsent("state", rule: "AF-RE-5", level: .should, "The request had no single valid state to return.")
      }
      if let descriptions = valuesNamed("error_description") {
        if descriptions.count > 1 {
          add(
            "AF-RE-7", .should, "reply.error_description", "at most one",
            descriptions.map(\.display).joined(separator: ", "),
            "error_description appears \(descriptions.count) times; a reply parameter appears once (RFC 6749 §3.1).")
        }
        for description in descriptions where !description.isNQSChar {
          add(
            "AF-RE-7", .should, "reply.error_description", "only RFC 6749 NQSCHAR (%x20-21 / %x23-5B / %x5D-7E)",
            description.display,
            "error_description holds a character outside printable ASCII, or \" or \\ (RFC 6749 §4.1.2.1).")
        }
      }
    }
    // Each name outside the four once, at its first appearance, with all its values.
    for index in parameters.indices {
      let name = name(index)
      guard !isReplyParameter(name), occurrences(name).first == index, let values = valuesNamed(name) else { continue }
      add(
        "AF-RE-8", .should, "reply.\(name)", "absent", values.map(\.display).joined(separator: ", "),
        "A reply carries only code, state, error and error_description.")
    }
    return findings
  }

  static func describe(_ requests: [AuthorizationRequest]) -> String {
    guard !requests.isEmpty else { return "no code request" }
    return requests.map {
      "{clientId: \(Quoted.string($0.clientID)), redirectUri: \(Quoted.string($0.redirectURI)), scopes: \(Quoted.list($0.scopes))}"
    }.joined(separator: ", ")
  }

  /// The AF-V-1 message for a wrong number of code requests, saying how to map an app's own screens when none was
  /// recorded for an error outcome (Docs/HANDLERS.md, "The authorization step"; App Flip for iOS, "How it works",
  /// steps 3–4).
  static func oneRequestMessage(_ expect: RenderedExpectation, _ requests: [AuthorizationRequest]) -> String {
    let base = "An accepted link makes exactly one code request."
    guard requests.isEmpty, let error = expect.reply?.error else { return base }
    return base
      + " None was recorded, and this outcome replies \(error.rawValue): an app that shows its own sign-in or consent"
      + " screen before calling its server starts the authorization step there. Record the request where that step"
      + " starts (for an in-process handler, call Authorizer.requestCode, or ScriptedAuthorizationStep's signIn or"
      + " consent, before the first screen; over the protocol, list it in \"authorization\") and let the screens"
      + " answer from the scripted outcome; see \"The authorization step\" in Docs/HANDLERS.md."
  }
}
