import AppFlip

/// Checks what the JSON types cannot: ids, rule citations, placeholders, and that each expectation is complete and agrees with the rules' verdicts.
enum VectorValidator {
  static func problems(
    in vector: Vector, profile: VectorFile.Profile = .app, file: String, path: String,
    definitions: VectorDefinitions = VectorDefinitions()
  ) -> [VectorError] {
    var problems: [VectorError] = []
    func invalid(_ field: String, _ value: String, _ reason: String) {
      problems.append(
        .invalidValue(file: file, vectorID: vector.id, field: "\(path).\(field)", value: value, reason: reason))
    }
    if !isValidID(vector.id) {
      invalid("id", vector.id, "an id is lowercase letters, digits and . _ / -, starting with a letter or digit")
    }
    if vector.spec.isEmpty { invalid("spec", "[]", "cite at least one App Flip doc section or RFC section") }
    if vector.rules.isEmpty { invalid("rules", "[]", "name at least one rule id from RULES.md, e.g. AF-RU-2") }
    for (index, rule) in vector.rules.enumerated() {
      if let reason = definitions.problem(citing: rule) { invalid("rules[\(index)]", rule, reason) }
    }
    for (index, flag) in vector.flags.enumerated() {
      if let reason = definitions.problem(flagging: flag) { invalid("flags[\(index)]", flag, reason) }
    }
    if vector.steps.isEmpty { invalid("steps", "[]", "give at least one step") }
    if vector.interleaved
      && (vector.steps.count < 2 || vector.steps.contains { $0.expect.verdict != .accepted })
    {
      invalid(
        "interleaved", "true",
        "interleaved vectors need at least two steps, each accepted, so every link asks for a code")
    }
    for (field, value, reason) in exchangeProblems(vector, profile: profile) { invalid(field, value, reason) }
    for (index, step) in vector.steps.enumerated() {
      let prefix = vector.steps.count == 1 ? "" : "steps[\(index)]."
      for (field, string) in strings(in: step) + (index == 0 ? strings(in: vector.exchanges) : []) {
        for token in Placeholder.tokens(in: string) {
          switch token.parsed {
          case .failure(let error):
            invalid(prefix + field, string, error.message)
          case .success(let placeholder)
          where field == "incoming.raw" && placeholder.part != nil
            && placeholder.transforms.contains(where: \.writesEscapes):
            invalid(
              prefix + field, string,
              "\(placeholder.spelling) writes % escapes into a raw link, where they would be decoded; write the escape in the link itself, or use \"params\""
            )
          case .success:
            break
          }
        }
      }
      for (field, value, reason) in consistencyProblems(step, profile: profile) {
        invalid(prefix + field, value, reason)
      }
      for (index, alternative) in step.alternatives.enumerated() {
        let path = prefix + "alternatives[\(index)]."
        if let reason = definitions.problem(citing: alternative.rule) {
          invalid(path + "rule", alternative.rule, reason)
        }
        var alone = step
        alone.expect = alternative.expect
        for (field, value, reason) in consistencyProblems(alone, profile: profile) where field.hasPrefix("expect") {
          invalid(path + field, value, reason)
        }
        if alternative.expect == step.expect {
          invalid(path + "expect", alternative.reading, "an alternative differs from the preferred \"expect\"")
        }
      }
    }
    return problems
  }

  /// Whether the expectation is complete and matches the verdict and the scripted outcome.
  static func consistencyProblems(_ step: Vector.Step, profile: VectorFile.Profile = .app) -> [(String, String, String)]
  {
    if profile == .association { return associationProblems(step) }
    var problems: [(String, String, String)] = []
    if let check = step.expect.association {
      problems.append(("expect.association", check.rawValue, "only association-profile files check the association"))
    }
    if profile != .app { return problems + endpointProblems(step) }
    let expect = step.expect
    if expect.reply?.code == Vector.ExpectedReply.anyCode {
      problems.append(
        ("expect.reply.code", "{code}", "any-code is for endpoint vectors; give the scripted outcome's code"))
    }
    switch expect.verdict {
    case .ignored:
      if let reply = expect.reply {
        problems.append(("expect.reply", reply.base, "an ignored link opens nothing; remove \"reply\""))
      }
      if expect.authorization != nil {
        problems.append(("expect.authorization", "{…}", "an ignored link requests no code; remove \"authorization\""))
      }
    case .rejected:
      if expect.authorization != nil {
        problems.append(("expect.authorization", "{…}", "a rejected link requests no code; remove \"authorization\""))
      }
      if let reply = expect.reply {
        if reply.error != .invalidRequest {
          problems.append(
            (
              "expect.reply.error", reply.error?.rawValue ?? reply.code ?? "",
              "a rejected link is answered with error invalid_request"
            ))
        }
      } else {
        problems.append(("expect.reply", "", "a rejected link is answered with error=invalid_request; add \"reply\""))
      }
    case .accepted:
      if expect.authorization == nil {
        problems.append(("expect.authorization", "", "an accepted link requests a code; add \"authorization\""))
      }
      guard let outcome = step.outcome else {
        problems.append(("outcome", "", "an accepted link needs a scripted outcome; add \"outcome\""))
        break
      }
      guard let reply = expect.reply else {
        problems.append(("expect.reply", "", "an accepted link is answered at redirect_uri; add \"reply\""))
        break
      }
      let mapped = outcome.authorizationOutcome.errorCode
      if let code = outcome.code, !Bytes.equal(reply.code ?? "", code) || reply.code == nil {
        problems.append(
          ("expect.reply.code", reply.code ?? "", "the outcome grants \"\(code)\", so the reply carries that code"))
      }
      if let mapped, reply.error != mapped {
        problems.append(
          (
            "expect.reply.error", reply.error?.rawValue ?? "",
            "outcome \(outcome.result.rawValue) maps to \(mapped.rawValue) (AF-RE-4)"
          ))
      }
      if let authorization = expect.authorization, !Bytes.equal(authorization.redirectURI, reply.base) {
        problems.append(
          ("expect.reply.base", reply.base, "the reply goes to the redirect_uri the code was requested for (AF-RU-3)"))
      }
    }
    return problems
  }

  /// Association vectors: a link Google can send, which must open the app, or a check of the file; nothing is opened
  /// and no code requested, so neither is scripted.
  static func associationProblems(_ step: Vector.Step) -> [(String, String, String)] {
    var problems: [(String, String, String)] = []
    if step.expect.verdict != .accepted {
      problems.append(
        (
          "expect.verdict", step.expect.verdict.rawValue,
          "an association vector sends a link Google can send, which must open the app: write \"accepted\""
        ))
    }
    for (field, present) in [
      ("outcome", step.outcome != nil), ("expect.authorization", step.expect.authorization != nil),
      ("expect.reply", step.expect.reply != nil), ("alternatives", !step.alternatives.isEmpty),
    ] where present {
      problems.append(
        (field, "{…}", "an association vector only matches its link against the file; remove \"\(field)\""))
    }
    return problems
  }

  /// Endpoint vectors: the server decides, so no outcome or code request is scripted, and an accepted reply carries `{code}`.
  static func endpointProblems(_ step: Vector.Step) -> [(String, String, String)] {
    var problems: [(String, String, String)] = []
    let expect = step.expect
    if step.outcome != nil {
      problems.append(
        ("outcome", "{…}", "an endpoint vector scripts no outcome: the server decides; remove \"outcome\""))
    }
    if expect.authorization != nil {
      problems.append(
        ("expect.authorization", "{…}", "an endpoint's code requests cannot be observed; remove \"authorization\""))
    }
    switch expect.verdict {
    case .ignored:
      if let reply = expect.reply {
        problems.append(("expect.reply", reply.base, "an ignored request redirects nowhere; remove \"reply\""))
      }
    case .rejected:
      if expect.reply?.error != .invalidRequest {
        problems.append(
          (
            "expect.reply.error", expect.reply?.error?.rawValue ?? "",
            "a rejected request is answered with error invalid_request"
          ))
      }
    case .accepted:
      if expect.reply?.code != Vector.ExpectedReply.anyCode {
        problems.append(
          (
            "expect.reply.code", expect.reply?.code ?? "",
            "an accepted endpoint request redirects with any code: write \"{code}\""
          ))
      }
    }
    return problems
  }

  static func isValidID(_ id: String) -> Bool {
    guard let first = id.unicodeScalars.first, isLowerOrDigit(first) else { return false }
    return id.unicodeScalars.allSatisfy { isLowerOrDigit($0) || "._/-".unicodeScalars.contains($0) }
  }

  private static func isLowerOrDigit(_ scalar: Unicode.Scalar) -> Bool {
    ("a"..."z").contains(scalar) || ("0"..."9").contains(scalar)
  }

  /// Every string of a step that placeholders are substituted in, with its field path.
  static func strings(in step: Vector.Step) -> [(String, String)] {
    var strings: [(String, String)] = []
    switch step.incoming {
    case .raw(let raw):
      strings.append(("incoming.raw", raw))
    case .params(let parameters, let base):
      if let base { strings.append(("incoming.base", base)) }
      for (index, parameter) in parameters.enumerated() {
        strings.append(("incoming.params[\(index)]", parameter.name))
        if let value = parameter.value { strings.append(("incoming.params[\(index)]", value)) }
      }
    }
    for (path, expect) in [("expect", step.expect)]
      + step.alternatives.enumerated().map({ ("alternatives[\($0.offset)].expect", $0.element.expect) })
    {
      if let authorization = expect.authorization {
        strings.append(("\(path).authorization.clientId", authorization.clientID))
        strings.append(("\(path).authorization.redirectUri", authorization.redirectURI))
        for (index, scope) in (authorization.scopes ?? []).enumerated() {
          strings.append(("\(path).authorization.scopes[\(index)]", scope))
        }
      }
      if let reply = expect.reply {
        strings.append(("\(path).reply.base", reply.base))
        if let state = reply.state { strings.append(("\(path).reply.state", state)) }
      }
    }
    return strings
  }

  /// The form parameters a token request's `set` and `omit` may not name: the client's credentials and the PKCE
  /// verifier go where the authentication method and `--pkce` put them, changed with `clientId`, `secret`, `verifier`.
  static let managedParameters = ["client_id", "client_secret", "code_verifier"]

  /// What is wrong with a vector's token requests (RULES.md AF-TK): a token vector has one step, which gets the code,
  /// and at least one request; no other profile has any.
  static func exchangeProblems(_ vector: Vector, profile: VectorFile.Profile) -> [(String, String, String)] {
    guard profile == .token else {
      return vector.exchanges.isEmpty
        ? []
        : [
          ("exchanges", "[…]", "only token vectors (\"profile\": \"token\") make token requests; remove \"exchanges\"")
        ]
    }
    var problems: [(String, String, String)] = []
    if vector.steps.count != 1 || vector.steps.first?.expect.verdict != .accepted {
      problems.append(
        ("steps", "\(vector.steps.count) steps", "a token vector has one accepted step, the request that gets its code")
      )
    }
    if vector.exchanges.isEmpty {
      problems.append(("exchanges", "[]", "a token vector makes at least one token request; add \"exchanges\""))
    }
    for (index, exchange) in vector.exchanges.enumerated() {
      let path = "exchanges[\(index)]."
      let names = exchange.set.map(\.name) + exchange.omit
      for name in names where managedParameters.contains(name) {
        problems.append(
          (
            path + (exchange.omit.contains(name) ? "omit" : "set"), name,
            "\(name) is sent as the client authentication and --pkce say; change it with \"clientId\", \"secret\" or"
              + " \"verifier\""
          ))
      }
      if exchange.grant == .refreshToken, exchange.verifier != nil || exchange.wait != nil {
        problems.append(
          (path + "grant", "refresh_token", "a refresh request has no code: \"verifier\" and \"wait\" change a code's"))
      }
      if case .error(let codes) = exchange.expect {
        for code in codes where !Vector.Exchange.errorCodes.contains(code) {
          problems.append(
            (
              path + "expect.error", code,
              "not an RFC 6749 §5.2 error code; use \(Vector.Exchange.errorCodes.joined(separator: ", "))"
            ))
        }
      }
    }
    return problems
  }

  /// Every string of a vector's token requests that placeholders are substituted in, with its field path.
  static func strings(in exchanges: [Vector.Exchange]) -> [(String, String)] {
    var strings: [(String, String)] = []
    for (index, exchange) in exchanges.enumerated() {
      for (position, parameter) in exchange.set.enumerated() {
        strings.append(("exchanges[\(index)].set[\(position)]", parameter.name))
        if let value = parameter.value { strings.append(("exchanges[\(index)].set[\(position)]", value)) }
      }
      if let clientID = exchange.clientID { strings.append(("exchanges[\(index)].clientId", clientID)) }
    }
    return strings
  }
}
