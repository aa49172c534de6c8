import Foundation

/// Sends one `GET` to an authorization endpoint (or one `POST` to a token endpoint) without following redirects:
/// `http:` over the suite's own bounded socket client, `https:` through `curl` in a child process (`EndpointCurl`),
/// never URLSession, whose swift-corelibs-foundation ends the process when a server closes in the middle of its headers.
enum EndpointTransport {
  /// Sends the request with the given headers and returns the answer as received; throws `EndpointError` when there
  /// is none. `caCertificate` is a PEM file of the CA an `https:` server's certificate is checked against.
  static func get(_ url: URL, headers: [(String, String)], timeout: Double, caCertificate: String? = nil) async throws
    -> EndpointAnswer
  {
    if url.absoluteString.lowercased().hasPrefix("http://") {
      return try await EndpointHTTPClient.get(url, headers: headers, timeout: timeout)
    }
    return try await EndpointCurl.get(url, headers: headers, timeout: timeout, caCertificate: caCertificate)
  }

  /// Sends `body` as a form `POST` (a token request, RFC 6749 §4.1.3) through the same clients and bounds as `get`.
  static func post(_ url: URL, headers: [(String, String)], body: [UInt8], timeout: Double, caCertificate: String?)
    async throws -> EndpointAnswer
  {
    if url.absoluteString.lowercased().hasPrefix("http://") {
      return try await EndpointHTTPClient.get(url, headers: headers, body: body, timeout: timeout)
    }
    return try await EndpointCurl.get(
      url, headers: headers, body: body, timeout: timeout, caCertificate: caCertificate)
  }
}
