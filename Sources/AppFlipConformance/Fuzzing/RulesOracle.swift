import AppFlip

/// Computes, from the rules alone, every answer a conformant handler may give to a link: the preferred expectation and
/// the alternatives RULES.md accepts (AF-IN-8, AF-IN-9), never from what an implementation does.
///
/// The rules: `redirect_uri` first (AF-RU-1, AF-RU-4: missing, duplicated, undecodable or not allowed byte for byte →
/// ignored); then the request (AF-IN-1, AF-IN-2, AF-IN-5, AF-IN-6: `client_id`, `state`, `scope` → rejected with
/// `invalid_request` and the state when there was exactly one valid one, AF-RE-5); otherwise accepted, one code request
/// for the incoming scopes, and the reply the outcome maps to (AF-RE-4).
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
    let (preferred, lenient) = answer(link, outcome, reading: .rfc3986)
    var alternatives: [Vector.Alternative] = []
    if let lenient {
      alternatives.append(lenient)
    }
    if URLQuery(link).parameters.contains(where: { $0.raw.utf8.contains(UInt8(ascii: "+")) }) {
      let (formAnswer, _) = answer(link, outcome, reading: .form)
      if formAnswer != preferred && !alternatives.contains(where: { $0.expect == formAnswer }) {
        alternatives.append(
          Vector.Alternative(
            rule: "AF-IN-9", reading: "a raw + read as a space, as form decoding and Android's Uri do", warns: true,
            expect: formAnswer))
      }
    }
    return (preferred, alternatives)
  }

  /// One reading's answer, and the AF-IN-8 alternative it allows, if any.
  func answer(_ link: String, _ outcome: AuthorizationOutcome, reading: Reading) -> (
    Vector.Expectation, Vector.Alternative?
  ) {
    let parameters = URLQuery(link).parameters.map { Decoded($0, reading: reading) }
    func named(_ name: String) -> [Decoded] { parameters.filter { $0.name.map { Bytes.equal($0, name) } ?? false } }

    let redirects = named("redirect_uri")
    guard redirects.count == 1, let redirect = redirects[0].text, configuration.allowList.contains(redirect) else {
      return (Vector.Expectation(verdict: .ignored), nil)
    }
    let states = named("state")
    let clientIDs = named("client_id")
    let scopes = named("scope")
    let validState = states.count == 1 ? states[0].text.flatMap { $0.isEmpty ? nil : $0 } : nil
    let rejected = Vector.Expectation(
      verdict: .rejected,
      reply: Vector.ExpectedReply(
        base: redirect, state: validState.flatMap { Self.printable($0) ? $0 : nil },
        stateHex: validState.flatMap { Self.printable($0) ? nil : Self.hex(Array($0.utf8)) }, error: .invalidRequest))

    guard clientIDs.count == 1, let clientID = clientIDs[0].text, Bytes.equal(clientID, configuration.clientID),
      states.count == 1, scopes.count <= 1
    else { return (rejected, nil) }

    let stateBytes = states[0].bytes ?? []
    let scopeText: String?? = scopes.first.map { $0.text }
    let requestedScopes: [String]? =
      switch scopeText {
      case .none: []
      case .some(.none): nil
      case .some(.some(let text)): Self.split(text)
      }
    let scopeIsAmbiguous = scopes.first?.raw.utf8.contains(UInt8(ascii: "+")) == true

    func accepted(stateBytes: [UInt8], scopes: [String]?) -> Vector.Expectation {
      let code: String? = if case .granted(let code) = outcome { code } else { nil }
      let text = Bytes.utf8String(stateBytes).flatMap { Self.printable($0) ? $0 : nil }
      return Vector.Expectation(
        verdict: .accepted,
        authorization: Vector.ExpectedAuthorization(
          clientID: clientID, redirectURI: redirect, scopes: scopeIsAmbiguous ? nil : scopes),
        reply: Vector.ExpectedReply(
          base: redirect, code: code, state: text, stateHex: text == nil ? Self.hex(stateBytes) : nil,
          error: outcome.errorCode))
    }

    let stateIsNotUTF8 = states[0].bytes.map { !$0.isEmpty && Bytes.utf8String($0) == nil } == true
    switch (validState, requestedScopes) {
    case (_?, let scopes?):
      return (accepted(stateBytes: stateBytes, scopes: scopes), nil)
    case (nil, let scopes) where stateIsNotUTF8:
      // AF-IN-8: a state whose bytes are not UTF-8 may be echoed exactly (and an undecodable scope dropped).
      return (
        rejected,
        Vector.Alternative(
          rule: "AF-IN-8", reading: "the state's bytes echoed exactly",
          expect: accepted(stateBytes: stateBytes, scopes: scopes ?? []))
      )
    case (_?, nil):
      // AF-IN-8: a scope that does not decode may be treated as absent.
      return (
        rejected,
        Vector.Alternative(
          rule: "AF-IN-8", reading: "the scope treated as absent", expect: accepted(stateBytes: stateBytes, scopes: []))
      )
    default:
      return (rejected, nil)
    }
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
        bytes = PercentEncoding.decode(parameter.rawValue, plusAsSpace: true)
      }
    }

    /// The value as text; `nil` when it does not decode or is not UTF-8.
    var text: String? { bytes.flatMap(Bytes.utf8String) }
  }
}
