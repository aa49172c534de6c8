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
  init(url: String) {
    guard let schemeEnd = Self.schemeEnd(url) else {
      self.init(scheme: "", host: nil, port: "")
      return
    }
    let scheme = url[..<schemeEnd].lowercased()
    let rest = url[url.index(after: schemeEnd)...]
    guard rest.hasPrefix("//") else {
      self.init(scheme: scheme, host: nil, port: "")
      return
    }
    let authorityStart = rest.index(rest.startIndex, offsetBy: 2)
    let authority = rest[authorityStart...].prefix { !"/?#\\".contains($0) }
    let hostPort = authority.lastIndex(of: "@").map { authority[authority.index(after: $0)...] } ?? authority
    var host = hostPort
    var port = Substring("")
    if hostPort.hasPrefix("["), let close = hostPort.firstIndex(of: "]") {
      host = hostPort[...close]
      let after = hostPort[hostPort.index(after: close)...]
      if after.hasPrefix(":") { port = after.dropFirst() }
    } else if let colon = hostPort.firstIndex(of: ":") {
      host = hostPort[..<colon]
      port = hostPort[hostPort.index(after: colon)...]
    }
    self.init(scheme: scheme, host: host.lowercased(), port: Self.normalized(port: port, scheme: scheme))
  }

  /// The origin of a `Location` value, resolved against the request URL when it is relative.
  init(location: String, requestURL: URL) {
    if Self.schemeEnd(location) != nil {
      self.init(url: location)
    } else if location.hasPrefix("//") {
      self.init(url: (requestURL.scheme ?? "") + ":" + location)
    } else {
      self.init(url: requestURL.absoluteString)
    }
  }

  private init(scheme: String, host: String?, port: String) {
    self.scheme = scheme
    self.host = host
    self.port = port
  }

  /// The absolute form of a `Location` value: itself when absolute, else resolved against the request URL.
  func absolute(_ location: String, requestURL: URL) -> String {
    if Self.schemeEnd(location) != nil { return location }
    if location.hasPrefix("//") { return (requestURL.scheme ?? "") + ":" + location }
    return URL(string: location, relativeTo: requestURL)?.absoluteString ?? location
  }

  /// The index of the `:` ending a scheme (RFC 3986 §3.1: a letter, then letters, digits, `+`, `-`, `.`), if any.
  static func schemeEnd(_ string: String) -> String.Index? {
    guard let first = string.first, first.isASCII, first.isLetter else { return nil }
    for index in string.indices {
      let character = string[index]
      if character == ":" { return index }
      guard character.isASCII, character.isLetter || character.isNumber || "+-.".contains(character) else {
        return nil
      }
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
