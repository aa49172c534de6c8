import AppFlip
import Foundation

/// Sends endpoint vectors to a partner's OAuth authorization endpoint as real `GET` requests and reports where the browser would be sent (APPFLIP-RULES AF-EP).
///
/// The query of the vector's rendered link (everything after the first `?`, byte for byte) is appended to the
/// endpoint URL. Redirects are never followed: a 3xx whose `Location` leaves the endpoint's origin (scheme, host, port)
/// is what the endpoint "opened"; a same-origin redirect (a login or error page) or a 2xx/4xx page opens nothing. A 5xx,
/// a redirect to the request itself, several `Location` headers, connection failures and timeouts are errors on that
/// vector. Code requests cannot be observed, so `authorizationRequests` is `nil`.
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
  /// Whether a signed-in request was shown to get a code (the preflight); until then, a refusal answered by the
  /// server's own page is inconclusive, never passed (AF-EP-5).
  package var sessionProven = false

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

  /// Sends the link's query to the endpoint and reports the off-site redirect it answered with, if any.
  public func handle(_ request: HandlerRequest) async throws -> Observation {
    let url = try requestURL(for: request.link)
    let answer = try await EndpointTransport.get(
      url, headers: headers, timeout: timeout, caCertificate: caCertificate)
    var observation = try Self.observe(answer, requestURL: url)
    if observation.opened == nil && !sessionProven {
      observation.inconclusive =
        "the server answered with its own page (\(observation.diagnostics.prefix(200))), and no signed-in request"
        + " was shown to get a code, so this refusal proves nothing; let the preflight run with the test user's"
        + " session (--cookie-file, --login-command)"
    }
    return observation
  }

  /// The request URL: the endpoint with the link's query appended after `?` (or `&` when the endpoint has a query),
  /// `scope=devices` replaced by `--scope`, then `--param` values and a fresh PKCE challenge appended.
  func requestURL(for link: String) throws(EndpointError) -> URL {
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
    var extra = parameters.map { PercentEncoding.encode($0.0) + "=" + PercentEncoding.encode($0.1) }
    if pkce {
      extra += ["code_challenge=" + EndpointPKCE().challenge, "code_challenge_method=S256"]
    }
    if !extra.isEmpty { query += (query.isEmpty ? "" : "&") + extra.joined(separator: "&") }
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

  /// Turns the endpoint's answer into an observation: an off-site redirect is opened, anything else opens nothing.
  static func observe(_ answer: EndpointAnswer, requestURL: URL) throws(EndpointError) -> Observation {
    let status = answer.status
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
    if location.utf8.firstRange(of: ", ".utf8) != nil {
      throw .multipleLocations(status: status, value: location)
    }
    let request = EndpointOrigin(url: requestURL.absoluteString)
    let target = EndpointOrigin(location: location, requestURL: requestURL)
    let absolute = target.absolute(location, requestURL: requestURL)
    if absolute == requestURL.absoluteString {
      throw .redirectLoop(status: status, location: location)
    }
    guard target == request else {
      return Observation(opened: OpenedURL(url: absolute, universalLinksOnly: nil), authorizationRequests: nil)
    }
    return Observation(
      opened: nil, authorizationRequests: nil,
      diagnostics:
        "HTTP \(status) to \(Quoted.string(location)) on the endpoint's own origin, not off-site (a login page? "
        + "pass the signed-in test user's --cookie or --header)")
  }
}
