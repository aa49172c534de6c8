extension Judge {
  /// The findings of one token endpoint answer against the answer a conformant one gives (APPFLIP-RULES AF-TK):
  /// a token (`tokenFindings`) or a refusal (`refusalFindings`).
  ///
  /// `refusalRule` is the rule a token breaks where the rules refuse one (the vector's first rule); `previousAccessToken`
  /// the description of the last access token this vector got, which a refresh must not give again.
  package static func tokenFindings(
    _ expected: Vector.Exchange.Answer, _ answer: TokenAnswer, refusalRule: String, previousAccessToken: String?
  ) -> [Finding] {
    switch expected {
    case .token: tokenFindings(answer, previousAccessToken: previousAccessToken)
    case .error(let codes): refusalFindings(answer, codes: codes, rule: refusalRule)
    }
  }

  /// A token (AF-TK-1; AF-TK-6 for the refresh grant): HTTP 200, a JSON object (`application/json`), a non-empty
  /// `access_token`, `token_type` `Bearer` in any case, `Cache-Control: no-store`, `expires_in` a number of seconds when
  /// given, and, for a code, a `refresh_token` when the token expires; a refresh gives a new access token.
  static func tokenFindings(_ answer: TokenAnswer, previousAccessToken: String?) -> [Finding] {
    let rule = answer.grant == .refreshToken ? "AF-TK-6" : "AF-TK-1"
    var findings: [Finding] = []
    func add(_ level: Level, _ field: String, _ expected: String, _ actual: String, _ message: String) {
      findings.append(
        Finding(rule: rule, level: level, field: field, expected: expected, actual: actual, message: message))
    }
    guard answer.status == 200 else {
      add(
        .must, "status", "200 with a token",
        "\(answer.status)" + (answer.members["error"].map { " with error \($0.shown)" } ?? ""),
        "The token endpoint must exchange this request for a token, as Google's account linking sends it (RFC 6749"
          + " §4.1.3, §5.1).")
      return findings
    }
    if let notJSON = answer.notJSON {
      add(
        .must, "body", "a JSON object (application/json)", notJSON,
        "Google reads the token answer as a JSON object (RFC 6749 §5.1); it cannot read this one.")
      return findings
    }
    func shown(_ member: String) -> String { answer.members[member]?.shown ?? "absent" }
    if answer.contentType?.lowercased().contains("application/json") != true {
      add(
        .should, "headers.content-type", "application/json", answer.contentType.map { Quoted.string($0) } ?? "absent",
        "A token answer is application/json (RFC 6749 §5.1).")
    }
    if answer.accessToken == nil {
      add(
        .must, "body.access_token", "a non-empty string", shown("access_token"),
        "The answer must carry the access token (RFC 6749 §5.1).")
    }
    if !answer.isBearer {
      add(
        .must, "body.token_type", "\"Bearer\" (any case)", shown("token_type"),
        "Google uses the token as a Bearer token and needs token_type to say so (RFC 6749 §5.1, §7.1).")
    }
    let directives = (answer.cacheControl ?? "").lowercased().split(separator: ",")
    if !directives.contains(where: { $0.trimmingCharacters(in: .whitespaces) == "no-store" }) {
      add(
        .must, "headers.cache-control", "no-store", answer.cacheControl.map { Quoted.string($0) } ?? "absent",
        "A token answer must not be stored by caches: Cache-Control: no-store (RFC 6749 §5.1).")
    }
    let expires = answer.members["expires_in"] != nil
    if !expires {
      add(
        .may, "body.expires_in", "the token's lifetime in seconds, if it expires", "absent",
        "If the access token expires, say when (RFC 6749 §5.1: RECOMMENDED).")
    } else if !answer.expiresInSeconds {
      add(
        .should, "body.expires_in", "a number of seconds", shown("expires_in"),
        "expires_in is the token's lifetime in seconds, a JSON number (RFC 6749 §5.1).")
    }
    if answer.grant == .authorizationCode, answer.members["refresh_token"] == nil {
      add(
        expires ? .must : .may, "body.refresh_token", "a refresh token", "absent",
        expires
          ? "The access token expires, and without a refresh token the link ends with it (RFC 6749 §1.5, §6)."
          : "Without a refresh token Google cannot renew the link if the access token ever expires (RFC 6749 §6).")
    }
    if answer.grant == .refreshToken, let previousAccessToken, answer.accessToken == previousAccessToken {
      add(
        .should, "body.access_token", "a new access token", previousAccessToken,
        "The refresh grant returns a new access token (RFC 6749 §6).")
    }
    return findings
  }

  /// A refusal: no token, under `rule`; its shape (AF-TK-5): status 400 (401 may answer `invalid_client`), a JSON
  /// object, an `error` among `codes`; under HTTP Basic an `invalid_client` answer is 401 with `WWW-Authenticate`
  /// (AF-TK-3), for the Basic scheme (AF-TK-5).
  static func refusalFindings(_ answer: TokenAnswer, codes: [String], rule: String) -> [Finding] {
    var findings: [Finding] = []
    func add(_ rule: String, _ level: Level, _ field: String, _ expected: String, _ actual: String, _ message: String) {
      findings.append(
        Finding(rule: rule, level: level, field: field, expected: expected, actual: actual, message: message))
    }
    let error = answer.members["error"]
    let issued =
      answer.members["access_token"].map(\.shown)
      ?? (answer.notJSON?.contains("access_token=") == true ? answer.body : nil)
    if let issued, answer.status < 300 {
      add(
        rule, .must, "body.access_token", "no token: error \(codes.joined(separator: " or "))", issued,
        "The token endpoint issued a token for a request the rules refuse (RFC 6749 §4.1.3, §5.2).")
      return findings
    }
    let code: String? = if case .string(let text)? = error { text } else { nil }
    let invalidClient = code == "invalid_client"
    if answer.basic && invalidClient && (answer.status != 401 || answer.wwwAuthenticate == nil) {
      add(
        "AF-TK-3", .must, "status", "401 with WWW-Authenticate",
        "\(answer.status)" + (answer.wwwAuthenticate == nil ? " without WWW-Authenticate" : ""),
        "A client that authenticated with HTTP Basic and failed gets 401 with WWW-Authenticate (RFC 6749 §5.2).")
    } else if answer.status != 400 && !(invalidClient && answer.status == 401) {
      add(
        "AF-TK-5", .should, "status", invalidClient ? "400 or 401" : "400",
        "\(answer.status)" + (error.map { " with error \($0.shown)" } ?? ""),
        "A refused token request is answered 400 (401 for invalid_client; RFC 6749 §5.2).")
    }
    if answer.basic && invalidClient, let scheme = answer.wwwAuthenticate, !scheme.lowercased().hasPrefix("basic") {
      add(
        "AF-TK-5", .should, "headers.www-authenticate", "the Basic scheme", Quoted.string(scheme),
        "WWW-Authenticate names the scheme the client used, Basic (RFC 6749 §5.2).")
    }
    if let notJSON = answer.notJSON {
      add(
        "AF-TK-5", .should, "body", "a JSON object with error \(codes.joined(separator: " or "))", notJSON,
        "A token error is a JSON object with an RFC 6749 §5.2 error code.")
    } else if code.map({ !codes.contains($0) }) ?? true {
      add(
        "AF-TK-5", .should, "body.error", codes.map { Quoted.string($0) }.joined(separator: " or "),
        error?.shown ?? "absent",
        code.map { Vector.Exchange.errorCodes.contains($0) } == true
          ? "RFC 6749 §5.2 names another error code for this request."
          : "A token error carries an RFC 6749 §5.2 error code.")
    }
    return findings
  }
}
