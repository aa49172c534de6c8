/// Renders values for diffs so that invisible differences show: control, non-ASCII and invalid bytes are escaped.
enum Quoted {
  /// A string in quotes, each non-printable or non-ASCII scalar as `\u{…}` (so NFC and NFD differ visibly).
  static func string(_ string: String) -> String {
    var out = "\""
    for scalar in string.unicodeScalars {
      switch scalar {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case " "..."~": out.unicodeScalars.append(scalar)
      default: out += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
      }
    }
    return out + "\""
  }

  /// Bytes shown as a quoted string when they are UTF-8, else as hex.
  static func bytes(_ bytes: [UInt8]) -> String {
    let string = String(decoding: bytes, as: UTF8.self)
    if string.utf8.elementsEqual(bytes) { return Self.string(string) }
    return "bytes " + bytes.map { String($0, radix: 16, uppercase: true).leftPadded(to: 2) }.joined(separator: " ")
  }

  /// A list of strings, each quoted.
  static func list(_ strings: [String]) -> String {
    "[" + strings.map(string).joined(separator: ", ") + "]"
  }
}

extension String {
  fileprivate func leftPadded(to width: Int) -> String {
    String(repeating: "0", count: Swift.max(0, width - count)) + self
  }
}
