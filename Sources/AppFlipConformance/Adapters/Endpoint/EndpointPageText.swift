import Foundation

/// The readable text of an endpoint's page for messages: markup, scripts and styles removed, a few entities decoded,
/// whitespace collapsed, so a server's own error ("Mismatching redirect URI.") shows instead of its HTML.
enum EndpointPageText {
  /// The text of an HTML (or plain) body, at most `limit` characters.
  static func text(of body: some Collection<UInt8>, limit: Int) -> String {
    var html = String(decoding: body.prefix(256 * 1024), as: UTF8.self)
    for element in ["script", "style", "head"] {
      while let open = html.range(of: "<\(element)", options: .caseInsensitive) {
        let close = html.range(of: "</\(element)>", options: .caseInsensitive, range: open.upperBound..<html.endIndex)
        html.removeSubrange(open.lowerBound..<(close?.upperBound ?? html.endIndex))
      }
    }
    var text = ""
    var inTag = false
    for character in html {
      if character == "<" {
        inTag = true
        text.append(" ")
      } else if character == ">" && inTag {
        inTag = false
      } else if !inTag {
        text.append(character)
      }
    }
    for (entity, value) in [
      ("&lt;", "<"), ("&gt;", ">"), ("&quot;", "\""), ("&#39;", "'"), ("&#x27;", "'"),
      ("&nbsp;", " "), ("&amp;", "&"),
    ] {
      text = text.replacingOccurrences(of: entity, with: value)
    }
    let words = text.split(whereSeparator: { $0.isWhitespace || $0.isNewline })
    var joined = words.joined(separator: " ")
    if joined.count > limit { joined = String(joined.prefix(limit)) + " …" }
    return joined
  }

  /// Bytes as printable text for an error message: ASCII as is, anything else as `\xNN`.
  static func printable(_ bytes: some Collection<UInt8>) -> String {
    bytes.map {
      (0x20...0x7E).contains($0) ? String(UnicodeScalar($0)) : "\\x" + String($0, radix: 16, uppercase: true)
    }
    .joined()
  }
}
