import AppFlip
import Foundation

/// Sends endpoint vectors to a partner's OAuth authorization endpoint as real `GET` requests and reports where the browser would be sent (APPFLIP-RULES AF-EP).
///
/// The query of the vector's rendered link (everything after the first `?`, byte for byte) is appended to the
/// endpoint URL. Redirects are never followed: a 3xx whose `Location` leaves the endpoint's origin (scheme, host, port)
/// is what the endpoint "opened"; a same-origin redirect (a login or error page) or a 2xx/4xx page opens nothing. A raw
/// CR, LF or NUL in a header, or several `Location` headers, is the server's AF-EP-6 failure. A 5xx, a redirect to the
/// request itself, connection failures and timeouts are errors on that vector. Code requests cannot be observed, so
/// `authorizationRequests` is `nil`.
///
/// A refusal answered by the server's own page counts only while the session is shown to work: after each one, the
/// preflight's request (the canary) must still get a code; once it gets none, that vector and every later one are
/// inconclusive (AF-EP-7), as is every vector after `EndpointSession.timeoutLimit` timeouts in a row.
public struct EndpointAdapter: ConformanceAdapter {
  /// The authorization endpoint, e.g. `https://partner.example/oauth/authorize`.
  public var endpoint: URL
  /// Extra request headers in order, e.g. `("Cookie", "session=…")` for a signed-in test user.
  public var headers: [(String, String)]
  /// Seconds one request may take before it counts as an error.
  public var timeout: Double
  /// Parameters added to every request after the vector's own, e.g. `("prompt", "consent")` or a server's own
  /// continue flag; names and values are percent-encoded.
  package var parameters: [(String, String)] = []
  /// The scope sent instead of the vectors' default `devices`, for a server with scopes of its own.
  package var scope: String?
  /// Whether every request carries a fresh PKCE S256 challenge (RFC 7636), for a server that requires PKCE.
  package var pkce = false
  /// A PEM file of the CA that an `https:` endpoint's certificate is checked against (`--cacert`), for a staging server
  /// with a certificate of its own; `nil` uses the system's trusted CAs.
  package var caCertificate: String?
  /// What the run knows of the test user's session, shared by every copy of the adapter (`EndpointSession`).
  package var session = EndpointSession()

  /// The endpoint, for reports.
  public var name: String { endpoint.absoluteString }

  /// Endpoint adapters run the endpoint profile's vectors.
  public var profile: VectorFile.Profile { .endpoint }

  /// Creates an adapter for an endpoint, with the headers every request carries and a per-request timeout in seconds.
  public init(endpoint: URL, headers: [(String, String)], timeout: Double) {
    self.endpoint = endpoint
    self.headers = headers
    self.timeout = timeout
  }

  /// Creates an adapter as a staging server needs it: added parameters, its own scope, PKCE.
  package init(
    endpoint: URL, headers: [(String, String)], timeout: Double, parameters: [(String, String)], scope: String?,
    pkce: Bool
  ) {
    self.init(endpoint: endpoint, headers: headers, timeout: timeout)
    self.parameters = parameters
    self.scope = scope
    self.pkce = pkce
  }

  /// Runs the preflight (`EndpointPreflight`): the request for the configuration's first redirect URL and, when the
  /// server refuses it, for each other configured one, until one gets a code; the first URL's answer when none does.
  /// Records in the session what it found: a working session, or a server that refuses every App Flip URL (AF-EP-1).
  func prove(configuration: PartnerConfiguration) async -> EndpointPreflight.Outcome {
    var outcome = await EndpointPreflight.request(
      self, redirectURI: configuration.primaryRedirectURI, configuration: configuration)
    if case .refused = outcome {
      for redirect in configuration.allowList.urls.dropFirst() where !Task.isCancelled {
        if case .proven = await EndpointPreflight.request(self, redirectURI: redirect, configuration: configuration) {
          outcome = .proven(redirectURI: redirect)
          break
        }
      }
    }
    switch outcome {
    case .proven(let redirectURI): session.set(.proven(redirectURI: redirectURI))
    case .refused(let diagnosis): session.set(.refused(diagnosis))
    case .failed, .unanswered: break
    }
    return outcome
  }

  /// Adds cookies (`name=value; …`) to the request's `Cookie` header, or adds one: a request carries one `Cookie`
  /// header (RFC 6265 §5.4).
  mutating func addCookies(_ cookies: String) {
    if let index = headers.lastIndex(where: { $0.0.lowercased() == "cookie" }) {
      headers[index].1 += "; " + cookies
    } else {
      headers.append(("Cookie", cookies))
    }
  }

  /// Sends the link's query to the endpoint and reports the off-site redirect it answered with, if any; a refusal
  /// is then re-checked with the canary (`EndpointSession`).
  public func handle(_ request: HandlerRequest) async throws -> Observation {
    try await handle(request, pkce: pkce ? EndpointPKCE() : nil)
  }

  /// Sends the request with the challenge of this PKCE pair under `--pkce` (a token run keeps its verifier for the
  /// exchange, AF-TK-4).
  func handle(_ request: HandlerRequest, pkce pair: EndpointPKCE?) async throws -> Observation {
    if let stop = session.stop(timeout: timeout) { throw ImplementationInconclusive(reason: stop) }
    let url = try requestURL(for: request.link, pkce: pair)
    var observation = try Self.observe(try await send(url, for: request.vectorID), requestURL: url)
    guard observation.findings.isEmpty, Self.needsCanary(observation, configuration: request.configuration) else {
      return observation
    }
    switch session.current {
    case .proven(let redirectURI):
      let canary = await EndpointPreflight.request(
        self, redirectURI: redirectURI, configuration: request.configuration, after: request.vectorID)
      switch canary {
      case .proven:
        return observation
      case .unanswered(let why):
        throw ImplementationInconclusive(
          reason:
            "after this answer (\(observation.diagnostics.prefix(200))), the preflight's request, which shows whether"
            + " the session still works, got no answer (\(why)), so this refusal proves nothing")
      case .refused(let why), .failed(let why):
        session.lose(at: request.vectorID, why: why)
        throw ImplementationInconclusive(
          reason:
            "the test user's session ended here: after this answer (\(observation.diagnostics.prefix(200))), the"
            + " preflight's request got no code (\(why)), so it proves nothing, nor does any answer after it; run"
            + " again with a fresh session (--login-command, --cookie-file), or one that lasts the run")
      }
    case .refused(let why):
      observation.inconclusive =
        "the server answered with its own page (\(observation.diagnostics.prefix(200))), and no App Flip URL got a"
        + " code from it (\(why)), so this refusal proves nothing"
    case .unproven, .lost:
      observation.inconclusive =
        "the server answered with its own page (\(observation.diagnostics.prefix(200))), and no signed-in request"
        + " was shown to get a code, so this refusal proves nothing; let the preflight run with the test user's"
        + " session (--cookie-file, --login-command)"
    }
    return observation
  }

  /// Sends the step as `handle(_:)` does: every request it makes (the vector's, the canary) keeps the adapter's own
  /// `timeout`, and a cancelled task ends it within 50 ms, so a run arms no deadline of its own for it.
  public func send(_ request: HandlerRequest, within seconds: Double) async throws -> Observation {
    try await handle(request)
  }

  /// Sends one request, noting for the session whether it was answered or timed out.
  func send(_ url: URL, for vector: String) async throws -> EndpointAnswer {
    do {
      let answer = try await EndpointTransport.send(
        url, headers: headers, timeout: timeout, caCertificate: caCertificate)
      session.answered()
      return answer
    } catch let error as EndpointError {
      if case .timedOut = error { session.timedOut(vector) }
      throw error
    }
  }

  /// Whether an answer needs the canary: it opened nothing (the server's own page, which could be its login page),
  /// or it sent an error that says the session is gone (`login_required`, …) to a configured redirect URL.
  static func needsCanary(_ observation: Observation, configuration: PartnerConfiguration) -> Bool {
    guard let opened = observation.opened?.url else { return true }
    guard configuration.allowList.urls.contains(where: { opened.hasPrefix($0 + "?") }) else { return false }
    let error = Self.query(of: opened)["error"] ?? ""
    return ["login_required", "consent_required", "interaction_required", "account_selection_required"].contains(error)
  }

  /// The request URL: the endpoint with the link's query appended after `?` (or `&` when the endpoint has a query),
  /// `scope=devices` replaced by `--scope`, then `--param` values and the PKCE challenge of `pair` (or a fresh one)
  /// appended.
  func requestURL(for link: String, pkce pair: EndpointPKCE? = nil) throws(EndpointError) -> URL {
    let base = endpoint.absoluteString
    var string = base
    var query = ""
    if let mark = link.utf8.firstIndex(of: UInt8(ascii: "?")) {
      query = String(link[link.utf8.index(after: mark)...])
    }
    if let scope {
      query = query.split(separator: "&", omittingEmptySubsequences: false).map { pair in
        pair == "scope=devices" ? "scope=" + PercentEncoding.encode(scope) : String(pair)
      }.joined(separator: "&")
    }
    var extra = parameters
    if pkce { extra += [("code_challenge", (pair ?? EndpointPKCE()).challenge), ("code_challenge_method", "S256")] }
    if !extra.isEmpty { query += (query.isEmpty ? "" : "&") + PercentEncoding.query(extra) }
    if !query.isEmpty {
      string += (base.utf8.contains(UInt8(ascii: "?")) ? "&" : "?") + query
    }
    guard let url = Self.exactURL(string) else { throw .invalidRequestURL(string) }
    return url
  }

  /// The URL of exactly these bytes, or `nil` where Foundation would percent-encode something (no re-encoding).
  static func exactURL(_ string: String) -> URL? {
    if #available(macOS 14, iOS 17, *) {
      return URL(string: string, encodingInvalidCharacters: false)
    }
    return URL(string: string)
  }

  /// Turns the endpoint's answer into an observation: an off-site redirect is opened, anything else opens nothing; a
  /// raw CR, LF or NUL in a header, or several `Location` headers, opens nothing and fails AF-EP-6.
  static func observe(_ answer: EndpointAnswer, requestURL: URL) throws(EndpointError) -> Observation {
    let status = answer.status
    if let fault = answer.headerFault {
      var observation = Observation(
        opened: nil, authorizationRequests: nil, diagnostics: "HTTP \(status): \(fault)")
      let field = answer.rawControl.map { $0.field.map { "headers." + $0 } ?? "headers" } ?? "headers.location"
      observation.findings = [
        Finding(
          rule: "AF-EP-6", level: .must, field: field, expected: "one Location header without a raw CR, LF or NUL",
          actual: fault,
          message:
            "A header holds a raw line break or NUL, or the redirect names two targets: header injection (RFC 9110"
            + " §5.5, §10.2.2); no browser follows it. Encode the redirect_uri's bytes, or refuse it.")
      ]
      return observation
    }
    if status >= 500 {
      throw .serverError(status: status, url: requestURL.absoluteString, body: answer.bodyExcerpt)
    }
    guard (300...399).contains(status) else {
      return Observation(
        opened: nil, authorizationRequests: nil,
        diagnostics: "HTTP \(status) without a redirect" + (answer.bodyExcerpt.isEmpty ? "" : ": \(answer.bodyExcerpt)")
      )
    }
    guard let location = answer.location, !location.isEmpty else {
      throw .missingLocation(status: status, url: requestURL.absoluteString)
    }
    let (absolute, offSite) = EndpointOrigin.resolve(location, requestURL: requestURL)
    if absolute == requestURL.absoluteString {
      throw .redirectLoop(status: status, location: location)
    }
    guard !offSite else {
      return Observation(opened: OpenedURL(url: absolute, universalLinksOnly: nil), authorizationRequests: nil)
    }
    return Observation(
      opened: nil, authorizationRequests: nil,
      diagnostics:
        "HTTP \(status) to \(Quoted.string(location)) on the endpoint's own origin, not off-site (a login page? "
        + "pass the signed-in test user's --cookie or --header)")
  }

  /// The decoded parameters of a URL's query (first value of each name), for reading a redirect the endpoint answered with.
  static func query(of url: String) -> [String: String] {
    Dictionary(parameters(of: url)) { first, _ in first }
  }

  /// The decoded parameters of a link's query, in order (form decoding, as servers read a query).
  /// Split by `URLQuery` (in UTF-8: `&` followed by U+0301 still ends a parameter), then form-decoded.
  static func parameters(of link: String) -> [(String, String)] {
    let decode = { (part: Substring) in
      PercentEncoding.decode(part, plusAsSpace: true).map { String(decoding: $0, as: UTF8.self) } ?? String(part)
    }
    return URLQuery(link).parameters.map { (decode($0.rawName), decode($0.rawValue)) }
  }
}
