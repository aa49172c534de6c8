/// Why an authorization endpoint's answer to one vector could not be judged; the vector counts as an error.
package enum EndpointError: Error, Sendable, Hashable, CustomStringConvertible, DiagnosableError {
  /// The endpoint URL with the vector's query appended is not a valid URL.
  case invalidRequestURL(String)
  /// Nothing listens at the endpoint, or the connection failed.
  case unreachable(url: String, reason: String)
  /// The endpoint did not answer in time.
  case timedOut(url: String, seconds: Double)
  /// The endpoint answered with a 5xx status.
  case serverError(status: Int, url: String, body: String)
  /// A 3xx answer without a `Location` header.
  case missingLocation(status: Int, url: String)
  /// The TLS handshake failed (an untrusted certificate, most often).
  case tlsFailed(url: String, reason: String)
  /// A redirect back to the very request URL.
  case redirectLoop(status: Int, location: String)
  /// The connection failed after it was made.
  case connectionLost(url: String, reason: String)
  /// The server closed the connection before its answer was complete.
  case closedEarly(url: String, received: Int, part: String)
  /// The answer does not start with an HTTP/1.x status line, or a header line is malformed.
  case notHTTP(url: String, start: String)
  /// A part of the answer is larger than the suite reads.
  case tooLarge(url: String, part: String, limit: Int)
  /// The body is compressed although the request asked for `Accept-Encoding: identity`.
  case compressedBody(url: String, status: Int, encoding: String)
  /// The `Location` header holds bytes that are not UTF-8.
  case invalidLocation(status: Int, start: String)
  /// The answer's `Content-Length` headers disagree, so where its body ends is unknown (RFC 9112 §6.3).
  case conflictingLengths(url: String, values: String)

  /// What went wrong, quoting the input, and what to do.
  package var description: String {
    switch self {
    case .invalidRequestURL(let url):
      "cannot send \(Quoted.string(Self.short(url))) as is (it holds characters a URL must percent-encode); check"
        + " --endpoint and the vector's incoming parameters"
    case .unreachable(let url, let reason):
      "could not connect to \(Quoted.string(Self.short(url))): \(reason); check that the server runs and --endpoint"
        + " names its host and port"
    case .timedOut(let url, let seconds):
      "\(Quoted.string(Self.short(url))) did not answer within \(seconds) seconds; check the server, or raise --timeout"
    case .serverError(let status, let url, let body):
      "\(Quoted.string(Self.short(url))) answered HTTP \(status) (a server error, not a refusal)"
        + (body.isEmpty ? "" : ": \(Quoted.string(body))") + "; see the server's log"
    case .missingLocation(let status, let url):
      "\(Quoted.string(Self.short(url))) answered HTTP \(status) without a Location header; a redirect must name its"
        + " target"
    case .tlsFailed(let url, let reason):
      "the TLS handshake with \(Quoted.string(Self.short(url))) failed: \(reason); if the server's certificate is"
        + " self-signed or signed by a CA of your own, pass that certificate (PEM) with --cacert FILE"
    case .redirectLoop(let status, let location):
      "the HTTP \(status) answer redirects to the request itself (\(Quoted.string(Self.short(location)))), a loop;"
        + " check the endpoint's redirect logic"
    case .connectionLost(let url, let reason):
      "the connection to \(Quoted.string(Self.short(url))) failed while waiting for the answer: \(reason); see the"
        + " server's log"
    case .closedEarly(let url, let received, let part):
      "\(Quoted.string(Self.short(url))) closed the connection \(part) (after \(received) bytes), so there is no"
        + " complete answer to judge; see the server's log"
    case .notHTTP(let url, let start):
      "\(Quoted.string(Self.short(url))) did not answer HTTP/1.x (it sent \(Quoted.string(start))); check that"
        + " --endpoint names the web server's port"
    case .tooLarge(let url, let part, let limit):
      "\(Quoted.string(Self.short(url))) sent a \(part) over \(limit / 1024) KiB, more than the suite reads; an"
        + " OAuth endpoint's answer is far smaller, see the server's log"
    case .compressedBody(let url, let status, let encoding):
      "\(Quoted.string(Self.short(url))) answered HTTP \(status) with a \(Quoted.string(encoding))-encoded body"
        + " although the request asked for Accept-Encoding: identity; the suite does not decompress, so serve it"
        + " uncompressed"
    case .invalidLocation(let status, let start):
      "the HTTP \(status) answer's Location header is not UTF-8 (\(Quoted.string(start))); send a percent-encoded"
        + " URL"
    case .conflictingLengths(let url, let values):
      "\(Quoted.string(Self.short(url))) answered with Content-Length headers that disagree (\(Quoted.string(values))),"
        + " so where its body ends is unknown (RFC 9112 §6.3); send one Content-Length"
    }
  }

  /// The endpoint's answer body, for the report.
  package var diagnostics: String {
    if case .serverError(_, _, let body) = self { return body }
    return ""
  }

  /// A URL cut to a readable length for messages (a 2 KB state would drown the reason).
  static func short(_ url: String) -> String {
    url.count > 200 ? String(url.prefix(200)) + "…" : url
  }
}
