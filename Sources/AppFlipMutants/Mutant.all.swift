import AppFlip
import AppFlipConformance
import Foundation

extension Mutant {
  /// Every mutant, each one realistic bug in an otherwise correct partner-style handler; names are stable.
  public static let all: [Mutant] = redirectMutants + incomingMutants + replyMutants + flowMutants

  /// A mutant that replaces one step of the correct `PartnerHandler`; `change` runs for each handler made, so a step's
  /// state (a cache) is the handler's own.
  public static func step(
    _ name: String, _ bug: String, _ change: @escaping @Sendable (inout PartnerSteps) -> Void
  ) -> Mutant {
    Mutant(name: name, bug: bug) { configuration in
      var steps = PartnerSteps()
      change(&steps)
      return PartnerHandler(configuration: configuration, steps: steps)
    }
  }

  /// A mutant that runs the correct `PartnerHandler` through a broken flow; `flow` is called for each handler made, so
  /// the state it keeps (a shared session) is that handler's own.
  public static func flow(_ name: String, _ bug: String, _ flow: @escaping @Sendable () -> FlowHandler.Flow) -> Mutant {
    Mutant(name: name, bug: bug) { FlowHandler(base: PartnerHandler(configuration: $0), flow: flow()) }
  }

  /// Bugs in validating `redirect_uri` and choosing where to answer.
  static let redirectMutants: [Mutant] = [
    step("prefix-match-redirect", "Accepts any redirect_uri that starts with an allowed URL (hasPrefix).") {
      $0.allowsRedirect = { candidate, allowList in allowList.urls.contains { candidate.hasPrefix($0) } }
    },
    step("contains-match-redirect", "Accepts any redirect_uri that contains an allowed URL.") {
      $0.allowsRedirect = { candidate, allowList in allowList.urls.contains { candidate.contains($0) } }
    },
    step(
      "host-suffix-redirect",
      "Accepts any https redirect_uri whose host ends in googleusercontent.com and whose path starts with /a/com.google."
    ) {
      $0.allowsRedirect = { candidate, _ in
        guard let url = URLComponents(string: candidate), url.scheme == "https" else { return false }
        return url.host?.hasSuffix("googleusercontent.com") == true && url.path.hasPrefix("/a/com.google.")
      }
    },
    step(
      "scheme-host-path-redirect",
      "Compares only scheme, host and decoded path, ignoring userinfo, port, query and fragment."
    ) {
      $0.allowsRedirect = { candidate, allowList in
        guard let url = URLComponents(string: candidate), let scheme = url.scheme, let host = url.host else {
          return false
        }
        return allowList.urls.contains("\(scheme)://\(host)\(url.path)")
      }
    },
    step("case-insensitive-redirect", "Compares redirect_uri with the allow-list case-insensitively.") {
      $0.allowsRedirect = { candidate, allowList in
        allowList.urls.contains { $0.lowercased() == candidate.lowercased() }
      }
    },
    step("standardized-redirect", "Compares URL.standardized, so dot segments in redirect_uri are resolved away.") {
      $0.allowsRedirect = { candidate, allowList in
        guard let url = URL(string: candidate) else { return false }
        return PartnerSteps.exactRedirect(url.standardized.absoluteString, allowList)
      }
    },
    step("http-scheme-accepted", "Accepts the http form of an allowed redirect_uri.") {
      $0.allowsRedirect = { candidate, allowList in
        guard candidate.hasPrefix("http://") else { return PartnerSteps.exactRedirect(candidate, allowList) }
        return PartnerSteps.exactRedirect("https://" + candidate.dropFirst("http://".count), allowList)
      }
    },
    step(
      "escape-case-folded-redirect",
      "Compares redirect_uri after upper-casing every %XX escape, so a configured %2B also admits %2b."
    ) {
      // RFC 3986 §6.2.2.1's normalization of the hex digits of every escape.
      @Sendable func folded(_ url: String) -> [UInt8] {
        var bytes = Array(url.utf8)
        for index in bytes.indices.dropLast(2) where bytes[index] == UInt8(ascii: "%") {
          for digit in (index + 1)...(index + 2) where (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(bytes[digit]) {
            bytes[digit] -= 32
          }
        }
        return bytes
      }
      $0.allowsRedirect = { candidate, allowList in allowList.urls.contains { folded($0) == folded(candidate) } }
    },
    step("dev-variant-redirect", "Also accepts each allowed URL with .dev appended, for Google's development builds.") {
      $0.allowsRedirect = { candidate, allowList in
        PartnerSteps.exactRedirect(candidate, allowList)
          || allowList.urls.contains { ($0 + ".dev").utf8.elementsEqual(candidate.utf8) }
      }
    },
    Mutant(
      name: "first-configured-reply-url",
      bug: "Validates redirect_uri, then binds the code to, and answers at, the first configured redirect URL."
    ) { configuration in
      var steps = PartnerSteps()
      steps.returnURL = { [allowList = configuration.allowList] redirectURI in allowList.urls.first ?? redirectURI }
      return PartnerHandler(configuration: configuration, steps: steps)
    },
    step(
      "hard-coded-reply-url",
      "Answers, and binds the code to, Google Assistant's production URL whatever redirect_uri arrived."
    ) { $0.returnURL = { _ in "https://oauth-redirect.googleusercontent.com/a/com.google.OPA" } },
    step(
      "production-host-only",
      "Rebuilds the reply URL on the production host from the bundle id, so sandbox links are answered on production."
    ) {
      $0.returnURL = { redirectURI in
        let bundleID = redirectURI.split(separator: "/").last.map(String.init) ?? ""
        return "https://oauth-redirect.googleusercontent.com/a/\(bundleID)"
      }
    },
    flow(
      "error-to-disallowed-redirect",
      "Opens a disallowed redirect_uri with error=invalid_request instead of opening nothing."
    ) {
      { base, link, authorizer in
        let request = try base.read(link)
        let decision = base.decide(request)
        if decision == .ignore, let redirectURI = request.redirectURI.text {
          let result = PartnerResult.error(
            "invalid_request", description: "Invalid request: redirect_uri is not allowed", state: request.state.text)
          return base.open(result, request, at: redirectURI)
        }
        return await base.respond(to: decision, request: request, link: link, authorizer: authorizer)
      }
    },
  ]

  /// Bugs in reading and validating the incoming parameters.
  static let incomingMutants: [Mutant] = [
    step("client-id-ignored", "Never checks client_id.") { $0.clientIDProblem = { _, _ in nil } },
    step("client-id-missing-accepted", "Checks client_id only when it is present, so a link without one is accepted.") {
      $0.clientIDProblem = { clientID, expected in
        clientID == .missing ? nil : PartnerSteps.clientIDProblem(clientID) { $0.utf8.elementsEqual(expected.utf8) }
      }
    },
    step(
      "client-id-unicode-equivalence",
      "Compares client_id with Swift's String ==, which treats canonically equivalent strings (U+212A and K) as equal."
    ) { $0.clientIDProblem = { clientID, expected in PartnerSteps.clientIDProblem(clientID) { $0 == expected } } },
    step("client-id-case-insensitive", "Compares client_id case-insensitively.") {
      $0.clientIDProblem = { clientID, expected in
        PartnerSteps.clientIDProblem(clientID) { $0.lowercased() == expected.lowercased() }
      }
    },
    step("empty-state-accepted", "Does not refuse a missing state: asks for a code and returns an empty state.") {
      $0.requireState = { state in state == .missing ? "" : state.text }
    },
    step("first-of-duplicates", "Takes the first of duplicated parameters instead of refusing the request.") {
      $0.read = { parameters, name in LinkValue(occurrence: parameters.first { $0.name == name }.map(\.value)) }
    },
    step("last-of-duplicates", "Takes the last of duplicated parameters instead of refusing the request.") {
      $0.read = { parameters, name in LinkValue(occurrence: parameters.last { $0.name == name }.map(\.value)) }
    },
    step(
      "foundation-decoding",
      "Decodes with Foundation's removingPercentEncoding, which drops a leading U+FEFF byte-order mark."
    ) {
      $0.parse = { QueryParsing.split($0, decodeName: { $0.removingPercentEncoding }) { $0.removingPercentEncoding } }
    },
    step("double-decoding", "Percent-decodes every value twice.") {
      $0.parse = {
        QueryParsing.split($0) { value in QueryParsing.decoded(value).map { QueryParsing.decoded($0) ?? $0 } }
      }
    },
    step("form-decoding", "Form-decodes the incoming link, reading a raw + as a space as Android's Uri does.") {
      // application/x-www-form-urlencoded, WHATWG URLSearchParams, Android's Uri.getQueryParameter (AF-IN-9).
      let formDecoded: @Sendable (String) -> String? = {
        PercentEncoding.decode($0, plusAsSpace: true).flatMap(Bytes.utf8String)
      }
      $0.parse = { QueryParsing.split($0, decodeName: formDecoded, decodeValue: formDecoded) }
    },
    step("trimmed-values", "Trims whitespace and newlines around every value.") {
      $0.parse = {
        QueryParsing.split($0) { QueryParsing.decoded($0)?.trimmingCharacters(in: .whitespacesAndNewlines) }
      }
    },
    step(
      "grapheme-delimiters",
      "Finds & # = with String's Character methods, so a delimiter followed by a combining mark is missed."
    ) { $0.parse = { QueryParsing.split($0, unit: .character, decodeValue: QueryParsing.decoded) } },
    step("semicolon-separator", "Splits the query on ; as well as &.") {
      $0.parse = { QueryParsing.split($0, separators: ["&", ";"], decodeValue: QueryParsing.decoded) }
    },
    step("fragment-in-query", "Does not cut the fragment off the query, so #… ends up in the last value.") {
      $0.parse = { QueryParsing.split($0, stripFragment: false, decodeValue: QueryParsing.decoded) }
    },
    step("undecoded-names", "Percent-decodes values but not names, so client%5Fid is not client_id.") {
      $0.parse = { QueryParsing.split($0, decodeName: { $0 }, decodeValue: QueryParsing.decoded) }
    },
    step("crash-on-malformed", "Force-unwraps each decoded value, so a broken escape or invalid UTF-8 crashes.") {
      $0.parse = { link in
        try QueryParsing.split(link) { value in
          guard let text = QueryParsing.decoded(value) else { throw PartnerCrash(what: "the decoded value") }
          return text
        }
      }
    },
    step("scopes-dropped", "Asks the OAuth server for its default scopes instead of the ones Google asked for.") {
      $0.authorize = { request, _, authorizer in
        await authorizer.requestCode(clientID: request.clientID, redirectURI: request.redirectURI, scopes: [])
      }
    },
  ]

  /// Bugs in building, encoding and opening the reply.
  static let replyMutants: [Mutant] = [
    step("literal-plus-in-reply", "Encodes the reply with URLComponents.queryItems, which leaves + literal.") {
      $0.encode = { parameters, base in
        guard var components = URLComponents(string: base) else { return PartnerSteps.encoded(parameters, base) }
        components.queryItems = parameters.map { URLQueryItem(name: $0.name, value: $0.value) }
        return components.string ?? PartnerSteps.encoded(parameters, base)
      }
    },
    step("space-as-plus-in-reply", "Form-encodes the reply, writing a space as +.") {
      $0.encode = { PartnerSteps.encoded($0, $1).replacingOccurrences(of: "%20", with: "+") }
    },
    step("unencoded-reply", "Builds the reply by string interpolation with no encoding at all.") {
      $0.encode = { parameters, base in
        "\(base)?" + parameters.map { "\($0.name)=\($0.value)" }.joined(separator: "&")
      }
    },
    step("fragment-in-reply", "Appends a #appflip fragment to the reply URL.") {
      $0.encode = { PartnerSteps.encoded($0, $1) + "#appflip" }
    },
    step("universal-links-off", "Opens the reply without the universal-links-only option.") {
      $0.open = { OpenedURL(url: $0, universalLinksOnly: false) }
    },
    step("code-in-error-reply", "Writes an empty code parameter into error replies.") {
      $0.reply = { result, request in
        guard case .error = result else { return PartnerSteps.reply(result, request) }
        return [("code", "")] + PartnerSteps.reply(result, request)
      }
    },
    step("state-not-echoed", "Returns the code without state.") {
      $0.reply = { result, request in
        guard case .code(let code, _) = result else { return PartnerSteps.reply(result, request) }
        return [("code", code)]
      }
    },
    step("state-dropped-from-errors", "Returns error replies without state.") {
      $0.reply = { result, request in
        guard case .error(let error, let description, _) = result else { return PartnerSteps.reply(result, request) }
        return PartnerSteps.reply(.error(error, description: description, state: nil), request)
      }
    },
    step("client-id-echoed", "Echoes the incoming client_id in every reply.") {
      $0.reply = { result, request in
        PartnerSteps.reply(result, request) + [("client_id", request.clientID.text ?? "")]
      }
    },
    step("quoted-error-description", "Puts double quotes around error_description, outside RFC 6749's NQSCHAR.") {
      $0.reply = { result, request in
        guard case .error(let error, let description?, let state) = result else {
          return PartnerSteps.reply(result, request)
        }
        return PartnerSteps.reply(.error(error, description: "\"\(description)\"", state: state), request)
      }
    },
    step("offline-unrecoverable", "Answers an offline device with unrecoverable instead of cancelled.") {
      $0.errorCode = { $0 == .offline ? "unrecoverable" : PartnerSteps.errorCode($0) }
    },
    step("consent-denied-cancelled", "Answers a denied consent with cancelled instead of access_denied.") {
      $0.errorCode = { $0 == .consentDenied ? "cancelled" : PartnerSteps.errorCode($0) }
    },
    step("non-rfc-error-code", "Answers a denied consent with user_not_authorized, not one of the four errors.") {
      $0.errorCode = { $0 == .consentDenied ? "user_not_authorized" : PartnerSteps.errorCode($0) }
    },
  ]

  /// Bugs in the order and memory of the flow.
  static let flowMutants: [Mutant] = [
    flow("authorize-before-validate", "Asks the OAuth server for a code before validating the link.") {
      { base, link, authorizer in
        let request = try base.read(link)
        let early = AuthorizationRequest(
          clientID: request.clientID.text ?? "", redirectURI: request.redirectURI.text ?? "",
          scopes: request.scopes ?? [])
        let outcome = await base.steps.authorize(early, link, authorizer)
        let decision = base.decide(request)
        guard case .authorize(_, let state, let replyTo) = decision else {
          return await base.respond(to: decision, request: request, link: link, authorizer: authorizer)
        }
        return base.open(base.result(for: outcome, state: state), request, at: replyTo)
      }
    },
    step("code-reuse", "Caches the first code granted for a link and answers a repeat of that link with it.") { steps in
      let codes = Locked<[String: String]>([:])
      steps.authorize = { request, link, authorizer in
        if let code = codes.withLock({ $0[link] }) { return .granted(code: code) }
        let outcome = await authorizer.requestCode(request)
        if case .granted(let code) = outcome { codes.withLock { $0[link] = code } }
        return outcome
      }
    },
    flow("stale-state", "Keeps the first flow's state in a shared session that is never cleared.") {
      let pendingState = Locked<String?>(nil)
      return { base, link, authorizer in
        let request = try base.read(link)
        var decision = base.decide(request)
        if case .authorize(let codeRequest, let state, let replyTo) = decision {
          let kept = pendingState.withLock { pending in
            if pending == nil { pending = state }
            return pending ?? state
          }
          decision = .authorize(codeRequest, state: kept, replyTo: replyTo)
        }
        return await base.respond(to: decision, request: request, link: link, authorizer: authorizer)
      }
    },
    flow(
      "shared-pending-request",
      "Keeps the pending state and redirect_uri in one shared property and reads them back after the OAuth round trip."
    ) {
      // One app-wide pending request, as an app delegate would keep it: the last link to arrive wins.
      let pending = Locked<(state: String, replyTo: String)?>(nil)
      return { base, link, authorizer in
        let request = try base.read(link)
        let decision = base.decide(request)
        guard case .authorize(let codeRequest, let state, let replyTo) = decision else {
          return await base.respond(to: decision, request: request, link: link, authorizer: authorizer)
        }
        pending.withLock { $0 = (state, replyTo) }
        let outcome = await base.steps.authorize(codeRequest, link, authorizer)
        let current = pending.withLock { $0 } ?? (state: state, replyTo: replyTo)
        return base.open(base.result(for: outcome, state: current.state), request, at: current.replyTo)
      }
    },
  ]
}
