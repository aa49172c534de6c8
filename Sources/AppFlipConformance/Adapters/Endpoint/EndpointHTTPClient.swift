import Foundation

/// One HTTP/1.1 `GET` over a socket (RFC 9112) for `http:` endpoints, bounded in time and memory: the status line and
/// headers up to 64 KiB, a body up to 1 MiB, everything within the timeout; redirects are never followed.
///
/// It asks for `Accept-Encoding: identity` (RFC 9110 §12.5.3) and treats a compressed answer as an error rather than
/// decompress it, so neither a huge body nor a small gzip bomb can grow the run's memory.
enum EndpointHTTPClient {
  /// The most bytes of status line and headers read.
  static let headerLimit = 64 * 1024
  /// The most bytes of body read.
  static let bodyLimit = 1024 * 1024

  /// The headers the suite sends itself, the same over `http:` and through curl: the `Accept` a page for a `GET`, anything
  /// for a token request, whose answer RFC 6749 §5.1 makes JSON without being asked; with `body`, a form (RFC 6749
  /// Appendix B), as a token request is sent.
  static func suiteHeaders(body: [UInt8]?) -> [(String, String)] {
    [
      ("User-Agent", "appflip-conformance/\(SuiteInfo.version)"), ("Accept", body == nil ? "text/html, */*" : "*/*"),
      ("Accept-Encoding", "identity"), ("Connection", "close"),
    ] + (body == nil ? [] : [("Content-Type", "application/x-www-form-urlencoded")])
  }

  /// The blocking exchange, until the deadline (`EndpointTransport.send`): connect, send, read the head, read the body.
  static func exchange(_ bounds: EndpointTransport.Bounds, headers: [(String, String)], body: [UInt8]?) throws
    -> EndpointAnswer
  {
    let parts = try RequestParts(bounds.url)
    let socket = try EndpointSocket.connect(host: parts.host, port: parts.port, bounds: bounds)
    try socket.send(message(parts, headers: headers, body: body))
    var received: [UInt8] = []
    return try read(from: socket, url: bounds.url, received: &received)
  }

  /// The request's bytes: its head (`request`), then the body of a `POST`.
  static func message(_ parts: RequestParts, headers: [(String, String)], body: [UInt8]?) -> [UInt8] {
    Array(request(parts, headers: headers, body: body).utf8) + (body ?? [])
  }

  /// The request's head: with `body`, a form `POST` that announces its type and length.
  static func request(_ parts: RequestParts, headers: [(String, String)], body: [UInt8]? = nil) -> String {
    let own =
      [("Host", parts.hostHeader)] + suiteHeaders(body: body) + (body.map { [("Content-Length", "\($0.count)")] } ?? [])
    return "\(body == nil ? "GET" : "POST") \(parts.target) HTTP/1.1\r\n"
      + merged(own, headers).map { "\($0.0): \($0.1)\r\n" }.joined() + "\r\n"
  }

  /// The suite's own headers with each one the user gave in place of the suite's of its name, or after them: a request
  /// has one Host, one User-Agent (Apple's CDN's, for the association file), and every other header the user repeats
  /// (two `Cookie` lines), over `http:` and through curl alike.
  static func merged(_ own: [(String, String)], _ given: [(String, String)]) -> [(String, String)] {
    var lines = own
    for header in given {
      if let index = own.firstIndex(where: { $0.0.lowercased() == header.0.lowercased() }) {
        lines[index].1 = header.1
      } else {
        lines.append(header)
      }
    }
    return lines
  }

  /// Reads one answer: skips 1xx interim answers, then the head and a bounded body; `received` keeps what came of
  /// a head not read whole when it throws.
  static func read(from socket: EndpointSocket, url: String, received: inout [UInt8]) throws -> EndpointAnswer {
    while true {
      let head = try readHead(from: socket, url: url, received: &received)
      if (100...199).contains(head.status) && head.status != 101 { continue }
      if let encoding = head.value("content-encoding"), encoding.lowercased() != "identity" {
        throw EndpointError.compressedBody(url: url, status: head.status, encoding: encoding)
      }
      let body = try readBody(from: socket, head: head, url: url, received: received)
      return try EndpointAnswer(head: head, body: body, url: url)
    }
  }

  /// Reads up to the blank line ending the headers; `received` keeps the bytes after it.
  static func readHead(from socket: EndpointSocket, url: String, received: inout [UInt8]) throws -> EndpointHead {
    var scanned = 0
    while true {
      if received.count >= 5, !received.starts(with: Array("HTTP/".utf8)) {
        throw EndpointError.notHTTP(url: url, start: EndpointHead.printable(received.prefix(60)))
      }
      if let end = EndpointHead.end(in: received, from: max(0, scanned - 3)) {
        let head = try EndpointHead(Array(received[..<end.start]), url: url)
        received.removeFirst(end.after)
        return head
      }
      scanned = received.count
      guard received.count <= headerLimit else {
        throw EndpointError.tooLarge(url: url, part: "status line and headers", limit: headerLimit)
      }
      let chunk = try socket.receive(upTo: headerLimit + 1 - received.count)
      if chunk.isEmpty {
        throw EndpointError.closedEarly(url: url, received: received.count, part: "before the end of its headers")
      }
      received += chunk
    }
  }

  /// Reads the body the head announces, at most `bodyLimit` bytes.
  static func readBody(from socket: EndpointSocket, head: EndpointHead, url: String, received: [UInt8]) throws
    -> [UInt8]
  {
    if head.status == 204 || head.status == 304 { return [] }
    var body = received
    let chunked = head.value("transfer-encoding")?.lowercased().contains("chunked") == true
    let length = chunked ? nil : try contentLength(head, url: url)
    if let length, length > bodyLimit {
      throw EndpointError.tooLarge(url: url, part: "body (Content-Length \(length))", limit: bodyLimit)
    }
    while true {
      if let length, body.count >= length { return Array(body.prefix(length)) }
      if chunked, let decoded = EndpointHead.dechunk(body) { return decoded }
      guard body.count <= bodyLimit else {
        throw EndpointError.tooLarge(url: url, part: "body", limit: bodyLimit)
      }
      let chunk = try socket.receive(upTo: bodyLimit + 1 - body.count)
      if chunk.isEmpty {
        if length == nil && !chunked { return body }
        throw EndpointError.closedEarly(url: url, received: body.count, part: "in the middle of its body")
      }
      body += chunk
    }
  }

  /// The body's length from its `Content-Length` headers: several that agree (`5, 5`) are one; several that differ
  /// are refused, since where the body ends is then unknown (RFC 9112 §6.3); `nil` for none or one not a number.
  static func contentLength(_ head: EndpointHead, url: String) throws(EndpointError) -> Int? {
    guard let value = head.value("content-length") else { return nil }
    let lengths = Set(value.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) })
    guard lengths.count == 1 else { throw .conflictingLengths(url: url, values: value) }
    return Int(lengths.first!)
  }

  /// Where and how to send a request: the host to connect to, the `Host` header and the request target.
  struct RequestParts {
    var host: String
    var port: String
    var hostHeader: String
    var target: String

    /// Reads an `http:` URL string as sent, never re-encoding it.
    init(_ url: String) throws(EndpointError) {
      guard url.lowercased().hasPrefix("http://") else { throw .invalidRequestURL(url) }
      let rest = url.dropFirst(7)
      let authorityEnd = rest.firstIndex { "/?#".contains($0) } ?? rest.endIndex
      var authority = rest[..<authorityEnd]
      if let at = authority.lastIndex(of: "@") { authority = authority[authority.index(after: at)...] }
      var path = rest[authorityEnd...]
      if let hash = path.firstIndex(of: "#") { path = path[..<hash] }
      target = path.isEmpty ? "/" : (path.hasPrefix("?") ? "/" + path : String(path))
      hostHeader = String(authority)
      if authority.hasPrefix("["), let close = authority.firstIndex(of: "]") {
        host = String(authority[authority.index(after: authority.startIndex)..<close])
        let after = authority[authority.index(after: close)...]
        port = after.hasPrefix(":") ? String(after.dropFirst()) : ""
      } else if let colon = authority.lastIndex(of: ":") {
        host = String(authority[..<colon])
        port = String(authority[authority.index(after: colon)...])
      } else {
        host = String(authority)
        port = ""
      }
      if port.isEmpty { port = "80" }
      guard !host.isEmpty, Int(port) != nil else { throw .invalidRequestURL(url) }
    }
  }
}
