/// Strings: the scan of a JSON string and the decoding of its escapes.
extension JSONSyntax.Scanner {
  /// Scans a string; returns its decoded text when `keep`, else "".
  mutating func string(keep: Bool) throws(JSONSyntax.Problem) -> String {
    let start = position
    position += 1
    var plain = true
    while position < bytes.count {
      let byte = bytes[position]
      if byte == UInt8(ascii: "\"") {
        position += 1
        guard keep else { return "" }
        let text = UnsafeBufferPointer(rebasing: bytes[(start + 1)..<(position - 1)])
        return plain ? String(decoding: text, as: UTF8.self) : Self.unescaped(text)
      }
      if byte == UInt8(ascii: "\\") {
        plain = false
        guard position + 1 < bytes.count else { break }
        let escape = bytes[position + 1]
        switch escape {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
          UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
          position += 2
        case UInt8(ascii: "u"):
          guard position + 5 < bytes.count, (2...5).allSatisfy({ Hex.value(bytes[position + $0]) != nil }) else {
            throw problem("\\u must be followed by four hex digits")
          }
          try surrogatePair()
        default:
          throw problem("\\\(Character(Unicode.Scalar(escape))) is not a JSON escape; write \\\\ for a backslash")
        }
        continue
      }
      if byte < 0x20 {
        throw problem(
          "a raw control character (\(byte == 0x0A ? "a line break" : "byte \(byte)")) inside a string; escape it")
      }
      if byte >= 0x80 {
        let length = utf8Length()
        guard length > 0 else { throw problem(inField("\(notUTF8()) inside a string; save the file as UTF-8")) }
        position += length
        continue
      }
      position += 1
    }
    position = start
    throw problem("a string that never ends; close it with '\"'")
  }

  /// The text of a string the scan has read whole (between its quotes), its escapes decoded: every escape and
  /// surrogate pair in it is known to be well formed.
  static func unescaped(_ text: UnsafeBufferPointer<UInt8>) -> String {
    var out: [UInt8] = []
    out.reserveCapacity(text.count)
    var index = 0
    while index < text.count {
      guard text[index] == UInt8(ascii: "\\") else {
        out.append(text[index])
        index += 1
        continue
      }
      let escape = text[index + 1]
      index += 2
      switch escape {
      case UInt8(ascii: "b"): out.append(0x08)
      case UInt8(ascii: "f"): out.append(0x0C)
      case UInt8(ascii: "n"): out.append(0x0A)
      case UInt8(ascii: "r"): out.append(0x0D)
      case UInt8(ascii: "t"): out.append(0x09)
      case UInt8(ascii: "u"):
        var code = hex(text, at: index)
        index += 4
        if (0xD800...0xDBFF).contains(code) {
          code = 0x10000 + ((code - 0xD800) << 10) + (hex(text, at: index + 2) - 0xDC00)
          index += 6
        }
        UTF8.encode(Unicode.Scalar(code) ?? "\u{FFFD}") { out.append($0) }
      default: out.append(escape)  // \" \\ \/
      }
    }
    return String(decoding: out, as: UTF8.self)
  }

  /// Steps over a `\\uXXXX` escape, and the low half after a high surrogate; half a surrogate pair alone is refused,
  /// since it stands for no character (RFC 8259 §8.2) and Foundation's decoders give up on the whole file.
  mutating func surrogatePair() throws(JSONSyntax.Problem) {
    let code = Self.hex(bytes, at: position + 2)
    if (0xDC00...0xDFFF).contains(code) { throw problem(inField(halfPair(code))) }
    position += 6
    guard (0xD800...0xDBFF).contains(code) else { return }
    guard position + 5 < bytes.count, bytes[position] == UInt8(ascii: "\\"), bytes[position + 1] == UInt8(ascii: "u"),
      (2...5).allSatisfy({ Hex.value(bytes[position + $0]) != nil }),
      (0xDC00...0xDFFF).contains(Self.hex(bytes, at: position + 2))
    else {
      position -= 6
      throw problem(inField(halfPair(code)))
    }
    position += 6
  }

  private func halfPair(_ code: UInt32) -> String {
    "\"\\u\(String(code, radix: 16))\" is half of a UTF-16 surrogate pair without its other half, so it stands for no "
      + "character; write the character itself, or both halves (e.g. \"\\ud83d\\ude00\")"
  }

  /// The four hex digits at `offset` of `text` as a number.
  static func hex(_ text: UnsafeBufferPointer<UInt8>, at offset: Int) -> UInt32 {
    (0..<4).reduce(UInt32(0)) { value, digit in value * 16 + UInt32(Hex.value(text[offset + digit]) ?? 0) }
  }

  /// The length of the well-formed UTF-8 sequence at `position` (Unicode Table 3-7), or 0 when it is not one.
  func utf8Length() -> Int {
    let lead = bytes[position]
    let (length, second): (Int, ClosedRange<UInt8>) =
      switch lead {
      case 0xC2...0xDF: (2, 0x80...0xBF)
      case 0xE0: (3, 0xA0...0xBF)
      case 0xE1...0xEC, 0xEE...0xEF: (3, 0x80...0xBF)
      case 0xED: (3, 0x80...0x9F)
      case 0xF0: (4, 0x90...0xBF)
      case 0xF1...0xF3: (4, 0x80...0xBF)
      case 0xF4: (4, 0x80...0x8F)
      default: (0, 0x80...0x80)
      }
    guard length > 0, position + length <= bytes.count, second.contains(bytes[position + 1]) else { return 0 }
    return (2..<length).allSatisfy { (0x80...0xBF).contains(bytes[position + $0]) } ? length : 0
  }

  /// The byte at `position` that is not UTF-8, in words.
  func notUTF8() -> String {
    "byte 0x\(String(bytes[position], radix: 16, uppercase: true)), which is not UTF-8,"
  }

  /// A reason prefixed with the field it is in, when the scan is inside one.
  func inField(_ reason: String) -> String {
    path.isEmpty ? reason : "field \"\(fieldPath(path))\": \(reason)"
  }
}
