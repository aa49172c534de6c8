import AppFlip

/// Computes, from the rules alone, every answer a conformant handler may give to a link: the preferred expectation and
/// the alternatives RULES.md accepts (AF-IN-8, AF-IN-9), never from what an implementation does.
///
/// The rules: `redirect_uri` first (AF-RU-1, AF-RU-4: missing, duplicated, undecodable or not allowed byte for byte →
/// ignored, or refused there where AF-IN-8 and AF-RU-5 allow it); then the request (AF-IN-1, AF-IN-2, AF-IN-5, AF-IN-6:
/// `client_id`, `state`, `scope` → rejected with `invalid_request` and the state when there was exactly one valid one,
/// AF-RE-5); otherwise accepted, one code request for the incoming scopes, and the reply the outcome maps to (AF-RE-4).
/// The bundled vectors accept exactly these answers (a test runs the oracle over every bundled vector's link).
package struct RulesOracle: Sendable {
  /// The partner configuration the handler runs with.
  package var configuration: PartnerConfiguration

  package init(configuration: PartnerConfiguration) {
    self.configuration = configuration
  }

  /// How the incoming query is decoded: RFC 3986, as iOS reads it, or form decoding (`+` as space, AF-IN-9).
  enum Reading {
    case rfc3986, form
  }

  /// The preferred answer and its alternatives for one link and scripted outcome.
  package func answers(to link: String, outcome: AuthorizationOutcome) -> (Vector.Expectation, [Vector.Alternative]) {
    var answers = answer(link, outcome, reading: .rfc3986)
    let preferred = answers.removeFirst().expect
    var alternatives = answers
    if URLQuery(link).parameters.contains(where: { $0.raw.utf8.contains(UInt8(ascii: "+")) }) {
      let formAnswer = answer(link, outcome, reading: .form)[0].expect
      if formAnswer != preferred && !alternatives.contains(where: { $0.expect == formAnswer }) {
        alternatives.append(
          Vector.Alternative(
            rule: "AF-IN-9", reading: "a raw + read as a space, as form decoding and Android's Uri do", warns: true,
            expect: formAnswer))
      }
    }
    return (preferred, alternatives)
  }

  /// Every answer one reading allows, the preferred one first, each with the rule and reading that allow it.
  ///
  /// `redirect_uri` decides first: exactly once and allowed, the request's answers; twice alike and allowed, nothing
  /// or `invalid_request` there (AF-IN-8); once and one of Google's twelve the allow-list leaves out, nothing or
  /// `invalid_request` there (AF-RU-5); otherwise nothing (AF-RU-4).
  func answer(_ link: String, _ outcome: AuthorizationOutcome, reading: Reading) -> [Vector.Alternative] {
    let parameters = URLQuery(link).parameters.map { Decoded($0, reading: reading) }
    func named(_ name: String) -> [Decoded] { parameters.filter { $0.name.map { Bytes.equal($0, name) } ?? false } }
    let ignored = Vector.Alternative(rule: "AF-RU-4", reading: "", expect: Vector.Expectation(verdict: .ignored))
    let redirects = named("redirect_uri")
    guard let redirect = redirects.first?.text, !redirect.isEmpty else { return [ignored] }
    let repeated = redirects.allSatisfy { $0.text.map { Bytes.equal($0, redirect) } ?? false }
    let allowed = configuration.allowList.contains(redirect)
    if redirects.count == 1 && allowed { return requestAnswers(parameters, redirect: redirect, outcome) }
    let refusal: (rule: String, reading: String)
    if repeated && allowed {
      refusal = ("AF-IN-8", "invalid_request to the redirect_uri given twice alike")
    } else if redirects.count == 1 && RedirectAllowList.google.contains(redirect) {
      refusal = ("AF-RU-5", "invalid_request to Google's own URL the allow-list leaves out")
    } else {
      return [ignored]
    }
    // Each answer the request allows there, as invalid_request with that answer's state: no code, none sent.
    var answers = [ignored]
    for answer in requestAnswers(parameters, redirect: redirect, outcome) {
      guard let reply = answer.expect.reply else { continue }
      let refused = Vector.Expectation(
        verdict: .rejected,
        reply: Vector.ExpectedReply(
          base: redirect, state: reply.state, stateHex: reply.stateHex, error: .invalidRequest))
      if !answers.contains(where: { $0.expect == refused }) {
        answers.append(Vector.Alternative(rule: refusal.rule, reading: refusal.reading, expect: refused))
      }
    }
    return answers
  }

  /// Every answer to a request whose `redirect_uri` is allowed: `invalid_request` when `client_id` is not Google's
  /// byte for byte, `state` is not there once or `scope` is repeated; otherwise every combination of the readings
  /// the sources allow for `state` (one valid state, or none) and `scope` (a list, or invalid), each with its reading in
  /// a few words, the preferred one first (AF-IN-1, AF-IN-6, AF-IN-8).
  func requestAnswers(_ parameters: [Decoded], redirect: String, _ outcome: AuthorizationOutcome)
    -> [Vector.Alternative]
  {
    func named(_ name: String) -> [Decoded] { parameters.filter { $0.name.map { Bytes.equal($0, name) } ?? false } }
    let states = named("state")
    let clientIDs = named("client_id")
    let scopes = named("scope")
    var stateReads: [([UInt8]?, String)] = [(nil, "")]
    if states.count == 1, let bytes = states[0].bytes, !bytes.isEmpty {
      stateReads =
        Bytes.utf8String(bytes) != nil ? [(bytes, "")] : [(nil, ""), (bytes, "the state's bytes echoed exactly")]
    }
    let dropped: ([String]?, String) = ([], "the scope treated as absent")
    var scopeReads: [([String]?, String)] = [(nil, "")]
    switch scopes.first {
    case nil:
      scopeReads = [([], ""), (nil, "a missing scope refused as a missing parameter")]
    case let scope? where scope.bytes?.isEmpty == true:
      scopeReads = [([], ""), (nil, "an empty scope refused as a missing parameter")]
    case let scope?:
      if let text = scope.text {
        let list = Self.split(text)
        scopeReads =
          list.allSatisfy(Self.isScopeToken)
          ? [(list, "")] : [(list, ""), (nil, "a scope outside RFC 6749's scope-token refused"), dropped]
      } else {
        scopeReads = [(nil, ""), dropped]
      }
    }
    let requestIsValid =
      clientIDs.count == 1 && clientIDs[0].text.map { Bytes.equal($0, configuration.clientID) } == true
      && states.count == 1 && scopes.count <= 1
    let scopeIsAmbiguous = scopes.first?.raw.utf8.contains(UInt8(ascii: "+")) == true
    var answers: [Vector.Alternative] = []
    for (stateBytes, stateReading) in stateReads {
      for (list, scopeReading) in scopeReads {
        let expect: Vector.Expectation
        if requestIsValid, let stateBytes, let list {
          let code: String? = if case .granted(let code) = outcome { code } else { nil }
          expect = Vector.Expectation(
            verdict: .accepted,
            authorization: Vector.ExpectedAuthorization(
              clientID: configuration.clientID, redirectURI: redirect, scopes: scopeIsAmbiguous ? nil : list),
            reply: Self.reply(redirect, stateBytes, code: code, error: outcome.errorCode))
        } else {
          expect = Vector.Expectation(
            verdict: .rejected, reply: Self.reply(redirect, stateBytes, code: nil, error: .invalidRequest))
        }
        guard !answers.contains(where: { $0.expect == expect }) else { continue }
        let reading = [stateReading, scopeReading].filter { !$0.isEmpty }.joined(separator: "; ")
        answers.append(Vector.Alternative(rule: "AF-IN-8", reading: reading, expect: expect))
      }
    }
    return answers
  }

  /// A reply at `base` with `state` as text, or as hexadecimal when it is not UTF-8 or would read as a placeholder.
  static func reply(_ base: String, _ state: [UInt8]?, code: String?, error: AppFlipErrorCode?) -> Vector.ExpectedReply
  {
    let text = state.flatMap(Bytes.utf8String).flatMap { printable($0) ? $0 : nil }
    return Vector.ExpectedReply(
      base: base, code: code, state: text, stateHex: text == nil ? state.map(hex) : nil, error: error)
  }

  /// Whether a scope is an RFC 6749 §3.3 scope-token: %x21 / %x23-5B / %x5D-7E only.
  static func isScopeToken(_ scope: String) -> Bool {
    scope.utf8.allSatisfy { $0 == 0x21 || (0x23...0x5B).contains($0) || (0x5D...0x7E).contains($0) }
  }

  /// Scopes are space-separated; empty pieces are not scopes (RFC 6749 §3.3).
  static func split(_ scope: String) -> [String] {
    scope.utf8.split(separator: UInt8(ascii: " ")).map { String(decoding: $0, as: UTF8.self) }
  }

  /// Whether a state can be written as a vector string as it is: no `{`, which placeholders would read.
  static func printable(_ state: String) -> Bool {
    !state.utf8.contains(UInt8(ascii: "{"))
  }

  static func hex(_ bytes: [UInt8]) -> String {
    let digits = Array("0123456789abcdef".utf8)
    return String(decoding: bytes.flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 0x0F)]] }, as: UTF8.self)
  }

  /// One parameter decoded under a reading; an empty value or a bare name counts as missing (AF-IN-1).
  struct Decoded {
    var raw: Substring
    var name: String?
    var bytes: [UInt8]?

    init(_ parameter: QueryParameter, reading: Reading) {
      raw = parameter.raw
      switch reading {
      case .rfc3986:
        name = parameter.name
        bytes = parameter.value
      case .form:
        name = PercentEncoding.decode(parameter.rawName, plusAsSpace: true).flatMap(Bytes.utf8String)
        bytes = parameter.formValue
      }
    }

    /// The value as text; `nil` when it does not decode or is not UTF-8.
    var text: String? { bytes.flatMap(Bytes.utf8String) }
  }
}
