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

  /// Sends the link's query to the endpoint and reports the off-site redirect it answered with, if any.
  public func handle(_ request: HandlerRequest) async throws -> Observation {
    let url = try requestURL(for: request.link)
    let answer = try await EndpointTransport.get(url, headers: headers, timeout: timeout)
    return try Self.observe(answer, requestURL: url)
  }

  /// The request URL: the endpoint with the link's query appended after `?` (or `&` when the endpoint has a query).
  func requestURL(for link: String) throws(EndpointError) -> URL {
    let base = endpoint.absoluteString
    var string = base
    if let mark = link.utf8.firstIndex(of: UInt8(ascii: "?")) {
      let query = link[link.utf8.index(after: mark)...]
      if !query.isEmpty {
        string += (base.utf8.contains(UInt8(ascii: "?")) ? "&" : "?") + query
      }
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
