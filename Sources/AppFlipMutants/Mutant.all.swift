import AppFlipConformance

extension Mutant {
  /// Every mutant, each one realistic bug in an otherwise correct partner-style handler; names are stable.
  public static let all: [Mutant] = redirectMutants + incomingMutants + replyMutants + flowMutants

  /// A mutant that replaces one step of the correct `PartnerHandler`.
  public static func step(
    _ name: String, _ bug: String, _ change: @escaping @Sendable (inout PartnerSteps) -> Void
  ) -> Mutant {
    Mutant(name: name, bug: bug) { configuration in
      var steps = PartnerSteps()
      change(&steps)
      return PartnerHandler(configuration: configuration, steps: steps)
    }
  }

  /// A mutant that wraps the correct `PartnerHandler` in a handler with a broken flow.
  public static func flow(
    _ name: String, _ bug: String, _ wrap: @escaping @Sendable (PartnerHandler) -> any AppFlipHandler
  ) -> Mutant {
    Mutant(name: name, bug: bug) { wrap(PartnerHandler(configuration: $0)) }
  }

  /// Bugs in validating `redirect_uri` and choosing where to answer.
  static let redirectMutants: [Mutant] = [
    step("prefix-match-redirect", "Accepts any redirect_uri that starts with an allowed URL (hasPrefix).") {
      $0.allowsRedirect = RedirectChecks.prefix
    },
    step("contains-match-redirect", "Accepts any redirect_uri that contains an allowed URL.") {
      $0.allowsRedirect = RedirectChecks.containing
    },
    step(
      "host-suffix-redirect",
      "Accepts any https redirect_uri whose host ends in googleusercontent.com and whose path starts with /a/com.google."
    ) { $0.allowsRedirect = RedirectChecks.hostSuffix },
    step(
      "scheme-host-path-redirect",
      "Compares only scheme, host and decoded path, ignoring userinfo, port, query and fragment."
    ) { $0.allowsRedirect = RedirectChecks.schemeHostPath },
    step("case-insensitive-redirect", "Compares redirect_uri with the allow-list case-insensitively.") {
      $0.allowsRedirect = RedirectChecks.caseInsensitive
    },
    step("standardized-redirect", "Compares URL.standardized, so dot segments in redirect_uri are resolved away.") {
      $0.allowsRedirect = RedirectChecks.standardized
    },
    step("http-scheme-accepted", "Accepts the http form of an allowed redirect_uri.") {
      $0.allowsRedirect = RedirectChecks.anyHTTPScheme
    },
    step(
      "escape-case-folded-redirect",
      "Compares redirect_uri after upper-casing every %XX escape, so a configured %2B also admits %2b."
    ) { $0.allowsRedirect = RedirectChecks.escapeCaseFolded },
    step("dev-variant-redirect", "Also accepts each allowed URL with .dev appended, for Google's development builds.") {
      $0.allowsRedirect = RedirectChecks.devVariants
    },
    Mutant(
      name: "first-configured-reply-url",
      bug: "Validates redirect_uri, then binds the code to, and answers at, the first configured redirect URL."
    ) { configuration in
      var steps = PartnerSteps()
      steps.returnURL = ReturnURLs.first(of: configuration.allowList)
      return PartnerHandler(configuration: configuration, steps: steps)
    },
    step(
      "hard-coded-reply-url",
      "Answers, and binds the code to, Google Assistant's production URL whatever redirect_uri arrived."
    ) { $0.returnURL = ReturnURLs.hardCoded },
    step(
      "production-host-only",
      "Rebuilds the reply URL on the production host from the bundle id, so sandbox links are answered on production."
    ) { $0.returnURL = ReturnURLs.productionHost },
    flow(
      "error-to-disallowed-redirect",
      "Opens a disallowed redirect_uri with error=invalid_request instead of opening nothing."
    ) { DisallowedRedirectAnswerHandler(base: $0) },
  ]

  /// Bugs in reading and validating the incoming parameters.
  static let incomingMutants: [Mutant] = [
    step("client-id-ignored", "Never checks client_id.") { $0.clientIDProblem = ClientIDChecks.ignored },
    step("client-id-missing-accepted", "Checks client_id only when it is present, so a link without one is accepted.") {
      $0.clientIDProblem = ClientIDChecks.optional
    },
    step(
      "client-id-unicode-equivalence",
      "Compares client_id with Swift's String ==, which treats canonically equivalent strings (U+212A and K) as equal."
    ) { $0.clientIDProblem = ClientIDChecks.unicodeEquivalent },
    step("client-id-case-insensitive", "Compares client_id case-insensitively.") {
      $0.clientIDProblem = ClientIDChecks.caseInsensitive
    },
    step("empty-state-accepted", "Does not refuse a missing state: asks for a code and returns an empty state.") {
      $0.requireState = StateChecks.emptyWhenMissing
    },
    step("first-of-duplicates", "Takes the first of duplicated parameters instead of refusing the request.") {
      $0.read = ParameterReading.first
    },
    step("last-of-duplicates", "Takes the last of duplicated parameters instead of refusing the request.") {
      $0.read = ParameterReading.last
    },
    step(
      "foundation-decoding",
      "Decodes with Foundation's removingPercentEncoding, which drops a leading U+FEFF byte-order mark."
    ) { $0.parse = QueryParsing.foundationDecoding },
    step("double-decoding", "Percent-decodes every value twice.") { $0.parse = QueryParsing.decodingTwice },
    step("form-decoding", "Form-decodes the incoming link, reading a raw + as a space as Android's Uri does.") {
      $0.parse = QueryParsing.formDecoding
    },
    step("trimmed-values", "Trims whitespace and newlines around every value.") {
      $0.parse = QueryParsing.trimmingValues
    },
    step(
      "grapheme-delimiters",
      "Finds & # = with String's Character methods, so a delimiter followed by a combining mark is missed."
    ) { $0.parse = QueryParsing.splittingGraphemes },
    step("semicolon-separator", "Splits the query on ; as well as &.") {
      $0.parse = QueryParsing.splittingOnSemicolons
    },
    step("fragment-in-query", "Does not cut the fragment off the query, so #… ends up in the last value.") {
      $0.parse = QueryParsing.keepingFragment
    },
    step("undecoded-names", "Percent-decodes values but not names, so client%5Fid is not client_id.") {
      $0.parse = QueryParsing.leavingNamesEncoded
    },
    step("crash-on-malformed", "Force-unwraps each decoded value, so a broken escape or invalid UTF-8 crashes.") {
      $0.parse = QueryParsing.forceUnwrapping
    },
    step("scopes-dropped", "Asks the OAuth server for its default scopes instead of the ones Google asked for.") {
      $0.authorize = Authorizing.droppingScopes
    },
  ]

  /// Bugs in building, encoding and opening the reply.
  static let replyMutants: [Mutant] = [
    step("literal-plus-in-reply", "Encodes the reply with URLComponents.queryItems, which leaves + literal.") {
      $0.encode = ReplyEncoding.queryItems
    },
    step("space-as-plus-in-reply", "Form-encodes the reply, writing a space as +.") {
      $0.encode = ReplyEncoding.formEncoded
    },
    step("unencoded-reply", "Builds the reply by string interpolation with no encoding at all.") {
      $0.encode = ReplyEncoding.interpolated
    },
    step("fragment-in-reply", "Appends a #appflip fragment to the reply URL.") {
      $0.encode = ReplyEncoding.withFragment
    },
    step("universal-links-off", "Opens the reply without the universal-links-only option.") {
      $0.open = Opening.defaultOptions
    },
    step("code-in-error-reply", "Writes an empty code parameter into error replies.") {
      $0.reply = ReplyBuilding.codeInErrors
    },
    step("state-not-echoed", "Returns the code without state.") { $0.reply = ReplyBuilding.stateNotEchoed },
    step("state-dropped-from-errors", "Returns error replies without state.") {
      $0.reply = ReplyBuilding.stateDroppedFromErrors
    },
    step("client-id-echoed", "Echoes the incoming client_id in every reply.") {
      $0.reply = ReplyBuilding.clientIDEchoed
    },
    step("quoted-error-description", "Puts double quotes around error_description, outside RFC 6749's NQSCHAR.") {
      $0.reply = ReplyBuilding.quotedDescription
    },
    step("offline-unrecoverable", "Answers an offline device with unrecoverable instead of cancelled.") {
      $0.errorCode = ErrorMapping.offlineUnrecoverable
    },
    step("consent-denied-cancelled", "Answers a denied consent with cancelled instead of access_denied.") {
      $0.errorCode = ErrorMapping.consentDeniedCancelled
    },
    step("non-rfc-error-code", "Answers a denied consent with user_not_authorized, not one of the four errors.") {
      $0.errorCode = ErrorMapping.userNotAuthorized
    },
  ]

  /// Bugs in the order and memory of the flow.
  static let flowMutants: [Mutant] = [
    flow("authorize-before-validate", "Asks the OAuth server for a code before validating the link.") {
      AuthorizeFirstHandler(base: $0)
    },
    step("code-reuse", "Caches the first code granted for a link and answers a repeat of that link with it.") { steps in
      steps.authorize = Authorizing.reusingCodes(CodeCache())
    },
    flow("stale-state", "Keeps the first flow's state in a shared session that is never cleared.") {
      StaleStateHandler(base: $0)
    },
    flow(
      "shared-pending-request",
      "Keeps the pending state and redirect_uri in one shared property and reads them back after the OAuth round trip."
    ) { PendingRequestHandler(base: $0) },
  ]
}
