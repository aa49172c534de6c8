import Foundation

/// Renders values for diffs so that invisible differences show: control, non-ASCII and invalid bytes are escaped,
/// and a long value is cut to its head and tail with its length shown, so no report or console line grows with the input.
enum Quoted {
  /// How many characters of a value are shown at most (head and tail together).
  static let limit = 240

  /// A string in quotes, each non-printable or non-ASCII scalar as `\u{…}` (so NFC and NFD differ visibly); a value
  /// longer than `limit` scalars, or whose escapes would make its quote longer than `4 * limit` characters, shows its
  /// head and tail (`limit / 2` scalars each at most) and how long the value itself is in characters (Unicode
  /// scalars): the stated length is the value's, and a quote never grows so long that a console line cuts it again.
  static func string(_ string: String, limit: Int = Quoted.limit) -> String {
    let scalars = string.unicodeScalars
    var count = 0
    var width = 0
    for scalar in scalars {
      count += 1
      width += self.width(scalar)
    }
    guard count > limit || width > 4 * limit else { return escaped(scalars[...]) }
    func taking(_ sequence: some Sequence<Unicode.Scalar>) -> Int {
      var taken = 0
      var used = 0
      for scalar in sequence {
        used += self.width(scalar)
        guard taken < limit / 2, used <= 2 * limit else { break }
        taken += 1
      }
      return taken
    }
    let headCount = taking(scalars)
    let tailCount = taking(scalars.reversed())
    let head = escaped(scalars.prefix(headCount)).dropLast()
    let tail = escaped(scalars.suffix(tailCount)).dropFirst()
    return "\(head)…\" [\(count) characters, \(count - headCount - tailCount) not shown] \"…\(tail)"
  }

  /// How many characters a scalar takes in a quote.
  private static func width(_ scalar: Unicode.Scalar) -> Int {
    switch scalar {
    case "\"", "\\": 2
    case " "..."~": 1
    default: 4 + String(scalar.value, radix: 16).count
    }
  }

  /// Text without quotes, cut to its head and tail when longer than `limit` characters; control characters kept.
  static func cut(_ text: String, limit: Int) -> String {
    guard text.utf8.count > limit, text.count > limit else { return text }
    let half = limit / 2
    return "\(text.prefix(half))… [\(text.count) characters, \(text.count - 2 * half) not shown] …\(text.suffix(half))"
  }

  private static func escaped(_ scalars: Substring.UnicodeScalarView) -> String {
    var out = "\""
    for scalar in scalars {
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
    func hex(_ part: ArraySlice<UInt8>) -> String {
      part.map { String(format: "%02X", $0) }.joined(separator: " ")
    }
    let half = limit / 6
    guard bytes.count > 2 * half else { return "bytes " + hex(bytes[...]) }
    return
      "bytes \(hex(bytes.prefix(half))) … [\(bytes.count) bytes, \(bytes.count - 2 * half) not shown] … \(hex(bytes.suffix(half)))"
  }

  /// A list of strings, each quoted.
  static func list(_ strings: [String]) -> String {
    "[" + strings.map { string($0) }.joined(separator: ", ") + "]"
  }
}
