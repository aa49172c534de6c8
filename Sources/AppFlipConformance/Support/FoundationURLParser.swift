import AppFlip

/// What `URL(string:)` makes of a string on iOS 17 and later: swift-foundation's RFC 3986 parser
/// (`RFC3986Parser.parse(urlString:encodingInvalidCharacters: true)` in FoundationEssentials/URL/URLParser.swift), the
/// code Apple's platforms ship since iOS 17 and macOS 14, and Foundation's on Linux.
///
/// The string is split at its delimiters into scheme, authority, path, query and fragment; each component is checked
/// against its RFC 3986 character set, and one that fails is percent-encoded whole, its `%` signs included. So a query
/// holding a single character it must encode (a space, a raw `é`, a broken escape `%G1`) has every escape in it
/// encoded again: `redirect_uri=https%3A%2F%2F…` arrives as `redirect_uri=https%253A%252F%252F…`.
package enum FoundationURLParser {
  /// The string `URL(string:)` keeps (its `absoluteString`), or why it returns nil, in one clause.
  package static func parse(_ string: String) -> Result<String, Refusal> {
    let bytes = Array(string.utf8)
    guard let parts = Parts(bytes) else { return .failure(Refusal(reason: "it has no valid scheme")) }
    if let port = parts.port, !port.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) {
      return .failure(
        Refusal(reason: "its port \(Quoted.string(String(decoding: port, as: UTF8.self))) is not a number"))
    }
    if parts.hostIsMalformedLiteral { return .failure(Refusal(reason: "characters follow its IP-literal host")) }
    var host = parts.host
    var encodeHost = false
    if let literal = host, parts.isIPLiteral, !isValidHost(literal) {
      // An IP literal's zone id is percent-encoded, its "%" included ("%25" + zone), and must then be valid.
      let bracket = literal.endIndex - 1
      let percent = literal[..<bracket].firstIndex(of: UInt8(ascii: "%")) ?? bracket
      let zone = encoded(literal[percent..<bracket], unreservedAllowed)
      host = (literal[..<percent] + zone + [UInt8(ascii: "]")])[...]
      encodeHost = true
      guard let host, isValidHost(host) else { return .failure(Refusal(reason: "its IP-literal host is not valid")) }
    }
    if let host, !isValidHost(host) {
      if host.contains(where: { $0 <= 0x20 || $0 == 0x7F }) {
        return .failure(Refusal(reason: "its host holds a space or control character"))
      }
      // An invalid host is IDNA-encoded (or refused); universal links have plain ASCII hosts, so this is not modelled.
      return .failure(
        Refusal(
          reason:
            "its host \(Quoted.string(String(decoding: host, as: UTF8.self))) would be IDNA-encoded, which the suite does not reproduce"
        ))
    }
    let encodeUser = parts.user.map { !isValid($0, userAllowed) } ?? false
    let encodePassword = parts.password.map { !isValid($0, userAllowed) } ?? false
    let encodePath = !isValid(parts.path, pathAllowed)
    let encodeQuery = parts.query.map { !isValid($0, queryAllowed) } ?? false
    let encodeFragment = parts.fragment.map { !isValid($0, queryAllowed) } ?? false
    guard encodeUser || encodePassword || encodeHost || encodePath || encodeQuery || encodeFragment else {
      return .success(string)
    }
    var out: [UInt8] = Array(parts.scheme) + [UInt8(ascii: ":")]
    if let host {
      out += Array("//".utf8)
      if let user = parts.user {
        out += encodeUser ? encoded(user, userAllowed) : Array(user)
        if let password = parts.password {
          out.append(UInt8(ascii: ":"))
          out += encodePassword ? encoded(password, userAllowed) : Array(password)
        }
        out.append(UInt8(ascii: "@"))
      }
      out += host
      if let port = parts.port, !port.isEmpty { out += [UInt8(ascii: ":")] + port }
    }
    if encodePath {
      // A path that does not start with "/" keeps ":" out of its first segment (RFC 3986 §3.3, path-noscheme).
      let slash = parts.path.firstIndex(of: UInt8(ascii: "/")) ?? parts.path.endIndex
      out += encoded(parts.path[..<slash], firstSegmentAllowed) + encoded(parts.path[slash...], pathAllowed)
    } else {
      out += parts.path
    }
    if let query = parts.query {
      out += [UInt8(ascii: "?")] + (encodeQuery ? encoded(query, queryAllowed) : Array(query))
    }
    if let fragment = parts.fragment {
      out += [UInt8(ascii: "#")] + (encodeFragment ? encoded(fragment, queryAllowed) : Array(fragment))
    }
    return .success(String(decoding: out, as: UTF8.self))
  }

  /// The first character of the link's query that makes the parser encode the query again, e.g. `a raw "é" (U+E9)` or
  /// `a broken escape "%G1"`; `nil` when the query is valid (or there is none).
  static func invalidQueryCharacter(_ link: String) -> String? {
    let bytes = Array(link.utf8)
    guard let query = Parts(bytes)?.query else { return nil }
    var index = query.startIndex
    while index < query.endIndex {
      let byte = query[index]
      if byte == UInt8(ascii: "%") {
        let escape = query[index..<min(index + 3, query.endIndex)]
        guard escape.count == 3, escape.dropFirst().allSatisfy({ Hex.value($0) != nil }) else {
          return "a broken escape \(Quoted.string(String(decoding: escape, as: UTF8.self)))"
        }
        index += 3
      } else if queryAllowed.contains(byte) {
        index += 1
      } else {
        let scalar = String(decoding: query[index...].prefix(4), as: UTF8.self).unicodeScalars.first
        let code = String(scalar?.value ?? UInt32(byte), radix: 16, uppercase: true)
        return
          "a raw \(Quoted.string(scalar.map { String($0) } ?? "")) (U+\(String(repeating: "0", count: max(0, 4 - code.count)) + code))"
      }
    }
    return nil
  }

  /// Why `URL(string:)` returns nil for a string.
  package struct Refusal: Error, Sendable, Hashable {
    /// One clause, e.g. "it has no valid scheme".
    package var reason: String
  }

  /// The components of a string, found at their delimiters as `parse(buffer:)` finds them; `nil` without a scheme.
  private struct Parts {
    var scheme: ArraySlice<UInt8>
    var user: ArraySlice<UInt8>?
    var password: ArraySlice<UInt8>?
    /// Present when the string has an authority (`//`), possibly empty.
    var host: ArraySlice<UInt8>?
    var port: ArraySlice<UInt8>?
    var isIPLiteral = false
    var hostIsMalformedLiteral = false
    var path: ArraySlice<UInt8>
    var query: ArraySlice<UInt8>?
    var fragment: ArraySlice<UInt8>?

    init?(_ bytes: [UInt8]) {
      // The scheme runs to the first ":", unless "/", "?", "#", "[", "]" or "@" comes first (a relative reference).
      guard let colon = bytes.firstIndex(where: { "/?#[]@:".utf8.contains($0) }), bytes[colon] == UInt8(ascii: ":"),
        colon > 0, bytes[0] >= UInt8(ascii: "A"), bytes[..<colon].allSatisfy({ schemeAllowed.contains($0) })
      else { return nil }
      scheme = bytes[..<colon]
      var index = colon + 1
      if bytes[index...].starts(with: "//".utf8) {
        index += 2
        let end = bytes[index...].firstIndex { "/?#".utf8.contains($0) } ?? bytes.endIndex
        var hostStart = index
        var hostEnd = end
        if let at = bytes[index..<end].lastIndex(of: UInt8(ascii: "@")) {
          if let colon = bytes[index..<at].firstIndex(of: UInt8(ascii: ":")) {
            user = bytes[index..<colon]
            password = bytes[(colon + 1)..<at]
          } else {
            user = bytes[index..<at]
          }
          hostStart = at + 1
        }
        if hostStart < end, bytes[hostStart] == UInt8(ascii: "["),
          let bracket = bytes[hostStart..<end].firstIndex(of: UInt8(ascii: "]"))
        {
          hostEnd = bracket + 1
          isIPLiteral = true
          if hostEnd != end {
            if bytes[hostEnd] == UInt8(ascii: ":") {
              port = bytes[(hostEnd + 1)..<end]
            } else {
              hostIsMalformedLiteral = true
            }
          }
        } else if let colon = bytes[hostStart..<end].firstIndex(of: UInt8(ascii: ":")) {
          hostEnd = colon
          if colon + 1 != end { port = bytes[(colon + 1)..<end] }
        }
        host = bytes[hostStart..<hostEnd]
        index = end
      }
      let pathEnd = bytes[index...].firstIndex { $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") } ?? bytes.endIndex
      path = bytes[index..<pathEnd]
      guard pathEnd < bytes.endIndex else { return }
      if bytes[pathEnd] == UInt8(ascii: "?") {
        let hash = bytes[pathEnd...].firstIndex(of: UInt8(ascii: "#")) ?? bytes.endIndex
        query = bytes[(pathEnd + 1)..<hash]
        if hash < bytes.endIndex { fragment = bytes[(hash + 1)...] }
      } else {
        fragment = bytes[(pathEnd + 1)...]
      }
    }
  }

  /// Whether every byte is in `allowed` or starts a `%XX` escape, as `RFC3986Parser.validate(buffer:component:)` checks.
  private static func isValid(_ bytes: ArraySlice<UInt8>, _ allowed: ByteSet) -> Bool {
    var index = bytes.startIndex
    while index < bytes.endIndex {
      let byte = bytes[index]
      if byte == UInt8(ascii: "%") {
        guard index + 2 < bytes.endIndex, Hex.value(bytes[index + 1]) != nil, Hex.value(bytes[index + 2]) != nil
        else { return false }
        index += 3
      } else {
        guard allowed.contains(byte) else { return false }
        index += 1
      }
    }
    return true
  }

  /// A host as `RFC3986Parser.validate(host:)` checks it: an IP literal by its own grammar, anything else as reg-name.
  private static func isValidHost(_ host: ArraySlice<UInt8>) -> Bool {
    guard host.first == UInt8(ascii: "["), host.last == UInt8(ascii: "]") else { return isValid(host, hostAllowed) }
    let inner = host.dropFirst().dropLast()
    guard let percent = inner.firstIndex(of: UInt8(ascii: "%")) else {
      return inner.allSatisfy(ipLiteralAllowed.contains)
    }
    // The zone id's delimiter must be written "%25" (RFC 6874).
    return inner[percent...].starts(with: "%25".utf8) && inner[..<percent].allSatisfy(ipLiteralAllowed.contains)
      && isValid(inner[(percent + 3)...], unreservedAllowed)
  }

  /// `bytes` with every byte outside `allowed` written `%XX` (upper-case hex), `%` itself included.
  private static func encoded(_ bytes: ArraySlice<UInt8>, _ allowed: ByteSet) -> [UInt8] {
    var out: [UInt8] = []
    out.reserveCapacity(bytes.count * 3)
    for byte in bytes {
      if allowed.contains(byte) {
        out.append(byte)
      } else {
        PercentEncoding.escape(byte, into: &out)
      }
    }
    return out
  }

  /// The sets of `URLComponentAllowedMask`, from RFC 3986's grammar: letters and digits plus these (userinfo keeps
  /// `:`, as this toolchain's Foundation does).
  private static func set(_ punctuation: String) -> ByteSet {
    ByteSet { byte in
      (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20)
        || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
        || punctuation.utf8.contains(byte)
    }
  }
  private static let schemeAllowed = set("+-.")
  private static let userAllowed = set("-._~!$&'()*+,;=:")
  private static let hostAllowed = set("-._~!$&'()*+,;=")
  private static let ipLiteralAllowed = set("-._~!$&'()*+,;=:")
  private static let unreservedAllowed = set("-._~")
  private static let pathAllowed = set("-._~!$&'()*+,;=:@/")
  private static let firstSegmentAllowed = set("-._~!$&'()*+,;=@/")
  private static let queryAllowed = set("-._~!$&'()*+,;=:@/?")
}
