import Foundation

/// The origin (scheme, host, port) of a redirect target, read from the string as sent, so that any difference from the
/// endpoint's own origin counts as "sent off-site".
struct EndpointOrigin: Hashable {
  /// The scheme, lowercased.
  var scheme: String
  /// The host, lowercased; `nil` for a URL without an authority (`javascript:…`, `mailto:…`).
  var host: String?
  /// The port as written, or the scheme's default port when none is written.
  var port: String

  /// The origin of an absolute URL string; a string without a scheme has the empty origin.
  ///
  /// Delimiters are found in UTF-8 bytes, never by `Character`: `/` followed by a combining mark is one grapheme, and a
  /// `Character` search would read `http://evil.example/\u{301}@endpoint` as the endpoint's own origin.
  init(url: String) {
    guard let schemeEnd = Self.schemeEnd(url) else {
      self.init(scheme: "", host: nil, port: "")
      return
    }
    let scheme = url[..<schemeEnd].lowercased()
    let rest = url[url.utf8.index(after: schemeEnd)...]
    guard rest.utf8.starts(with: "//".utf8) else {
      self.init(scheme: scheme, host: nil, port: "")
      return
    }
    let afterSlashes = rest[rest.utf8.index(rest.startIndex, offsetBy: 2)...]
    let authorityEnd = afterSlashes.utf8.firstIndex { "/?#\\".utf8.contains($0) } ?? afterSlashes.endIndex
    let authority = afterSlashes[..<authorityEnd]
    let hostPort =
      authority.utf8.lastIndex(of: UInt8(ascii: "@")).map { authority[authority.utf8.index(after: $0)...] }
      ?? authority
    var host = hostPort
    var port = Substring("")
    if hostPort.utf8.first == UInt8(ascii: "["), let close = hostPort.utf8.firstIndex(of: UInt8(ascii: "]")) {
      host = hostPort[...close]
      let after = hostPort[hostPort.utf8.index(after: close)...]
      if after.utf8.first == UInt8(ascii: ":") { port = after[after.utf8.index(after: after.startIndex)...] }
    } else if let colon = hostPort.utf8.firstIndex(of: UInt8(ascii: ":")) {
      host = hostPort[..<colon]
      port = hostPort[hostPort.utf8.index(after: colon)...]
    }
    self.init(scheme: scheme, host: host.lowercased(), port: Self.normalized(port: port, scheme: scheme))
  }

  private init(scheme: String, host: String?, port: String) {
    self.scheme = scheme
    self.host = host
    self.port = port
  }

  /// A `Location` value read against the request URL: its absolute form (itself when absolute, else resolved against
  /// the request URL), and whether it leaves the request's origin (a relative one never does).
  static func resolve(_ location: String, requestURL: URL) -> (absolute: String, offSite: Bool) {
    let absolute: String
    if schemeEnd(location) != nil {
      absolute = location
    } else if location.utf8.starts(with: "//".utf8) {
      absolute = (requestURL.scheme ?? "") + ":" + location
    } else {
      return (URL(string: location, relativeTo: requestURL)?.absoluteString ?? location, false)
    }
    return (absolute, EndpointOrigin(url: absolute) != EndpointOrigin(url: requestURL.absoluteString))
  }

  /// The index of the `:` ending a scheme (RFC 3986 §3.1: a letter, then letters, digits, `+`, `-`, `.`), if any.
  static func schemeEnd(_ string: String) -> String.Index? {
    func isLetter(_ byte: UInt8) -> Bool { (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) }
    guard let first = string.utf8.first, isLetter(first) else { return nil }
    for index in string.utf8.indices {
      let byte = string.utf8[index]
      if byte == UInt8(ascii: ":") { return index }
      guard isLetter(byte) || (0x30...0x39).contains(byte) || "+-.".utf8.contains(byte) else { return nil }
    }
    return nil
  }

  private static func normalized(port: Substring, scheme: String) -> String {
    if port.isEmpty {
      switch scheme {
      case "http": return "80"
      case "https": return "443"
      default: return ""
      }
    }
    return Int(port).map(String.init) ?? String(port)
  }
}
