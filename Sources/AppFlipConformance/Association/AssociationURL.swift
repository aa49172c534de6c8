import AppFlip

/// A link's parts as Apple matches them against an association file: its path, query, query items and fragment,
/// percent-encoded as iOS 17's `URL(string:)` holds them (`FoundationURLParser`: a component with a byte RFC 3986
/// does not allow is percent-encoded whole, its escapes included), or decoded (`"percentEncoded": false`).
package struct AssociationURL: Sendable, Hashable {
  /// The authority, lower-cased, without userinfo: `partner.example` or `127.0.0.1:8443`.
  package var authority: String
  /// The path, percent-encoded (`percentEncodedPath`); empty for `https://host?…`.
  package var path: String
  /// The query after the first `?`, percent-encoded; `nil` without a `?`.
  package var query: String?
  /// The fragment after the first `#`, percent-encoded; `nil` without a `#`.
  package var fragment: String?

  /// Splits a link; `nil` when it does not start with `scheme://`.
  package init?(_ link: String) {
    // A string `URL(string:)` refuses (an IDNA host) is split as written.
    let link = (try? FoundationURLParser.parse(link).get()) ?? link
    guard let schemeEnd = link.range(of: "://") else { return nil }
    let rest = link[schemeEnd.upperBound...]
    let authorityEnd = rest.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? rest.endIndex
    var authority = rest[..<authorityEnd]
    if let at = authority.lastIndex(of: "@") { authority = authority[authority.index(after: at)...] }
    self.authority = authority.lowercased()
    var remainder = rest[authorityEnd...]
    if let hash = remainder.firstIndex(of: "#") {
      fragment = String(remainder[remainder.index(after: hash)...])
      remainder = remainder[..<hash]
    }
    if let question = remainder.firstIndex(of: "?") {
      query = String(remainder[remainder.index(after: question)...])
      remainder = remainder[..<question]
    }
    path = String(remainder)
  }

  /// The query items as `URLComponents.percentEncodedQueryItems` splits them: on `&`, then at the first `=`; an item
  /// without `=` has no value.
  package var items: [(name: String, value: String?)] {
    guard let query else { return [] }
    return query.split(separator: "&", omittingEmptySubsequences: false).map { item in
      guard let equals = item.firstIndex(of: "=") else { return (String(item), nil) }
      return (String(item[..<equals]), String(item[item.index(after: equals)...]))
    }
  }

  /// A component percent-decoded as UTF-8 (a `+` stays a `+`), or `nil` when its bytes are not UTF-8.
  package static func decoded(_ text: String) -> String? {
    PercentEncoding.decode(text).flatMap(Bytes.utf8String)
  }
}
