/// Makes any text safe inside XML 1.0: escapes markup, and shows characters XML cannot carry as visible `\u{…}` text.
enum XMLText {
  /// Escaped for element content.
  static func content(_ string: String) -> String { escape(string, attribute: false) }

  /// Escaped for a double-quoted attribute; line breaks and tabs survive as character references.
  static func attribute(_ string: String) -> String { escape(string, attribute: true) }

  private static func escape(_ string: String, attribute: Bool) -> String {
    let needsWork = string.utf8.contains { byte in
      byte < 0x20 || byte == UInt8(ascii: "&") || byte == UInt8(ascii: "<") || byte == UInt8(ascii: ">")
        || (attribute && byte == UInt8(ascii: "\"")) || byte == 0xEF
    }
    guard needsWork else { return string }
    var out = ""
    out.reserveCapacity(string.utf8.count)
    for scalar in string.unicodeScalars {
      switch scalar {
      case "&": out += "&amp;"
      case "<": out += "&lt;"
      case ">": out += "&gt;"
      case "\"" where attribute: out += "&quot;"
      case "\n" where attribute: out += "&#10;"
      case "\r": out += "&#13;"
      case "\t" where attribute: out += "&#9;"
      case "\t", "\n": out.unicodeScalars.append(scalar)
      default:
        // XML 1.0 §2.2 Char: #x9 | #xA | #xD | [#x20-#xD7FF] | [#xE000-#xFFFD] | [#x10000-#x10FFFF].
        if scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF {
          out += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
        } else {
          out.unicodeScalars.append(scalar)
        }
      }
    }
    return out
  }
}
