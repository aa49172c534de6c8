/// Strings: the scan of a JSON string and the decoding of its escapes.
extension JSONSyntax.Scanner {
  /// Scans a string; returns its decoded text when `keep` (field names), else "".
  mutating func string(keep: Bool) throws(JSONSyntax.Problem) -> String {
    let start = position
    position += 1
    var plain = true
    while position < bytes.count {
      let byte = bytes[position]
      if byte == UInt8(ascii: "\"") {
        position += 1
        guard keep else { return "" }
        let raw = UnsafeBufferPointer(rebasing: bytes[(start + 1)..<(position - 1)])
        return plain ? String(decoding: raw, as: UTF8.self) : try unescape(raw, at: start + 1)
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
          guard position + 5 < bytes.count, (2...5).allSatisfy({ isHex(bytes[position + $0]) }) else {
            throw problem("\\u must be followed by four hex digits")
          }
          position += 6
        default:
          throw problem("\\\(Character(Unicode.Scalar(escape))) is not a JSON escape; write \\\\ for a backslash")
        }
        continue
      }
      if byte < 0x20 {
        throw problem(
          "a raw control character (\(byte == 0x0A ? "a line break" : "byte \(byte)")) inside a string; escape it")
      }
      position += 1
    }
    position = start
    throw problem("a string that never ends; close it with '\"'")
  }

  func unescape(_ raw: UnsafeBufferPointer<UInt8>, at offset: Int) throws(JSONSyntax.Problem) -> String {
    var scalars = String.UnicodeScalarView()
    var utf8: [UInt8] = []
    var index = 0
    func flush() {
      scalars.append(contentsOf: String(decoding: utf8, as: UTF8.self).unicodeScalars)
      utf8 = []
    }
    func hex(_ at: Int) -> UInt32 {
      (0..<4).reduce(UInt32(0)) { value, digit in
        value * 16 + UInt32(Character(Unicode.Scalar(raw[at + digit])).hexDigitValue ?? 0)
      }
    }
    while index < raw.count {
      let byte = raw[index]
      guard byte == UInt8(ascii: "\\") else {
        utf8.append(byte)
        index += 1
        continue
      }
      flush()
      let escape = raw[index + 1]
      switch escape {
      case UInt8(ascii: "u"):
        var code = hex(index + 2)
        index += 6
        if (0xD800...0xDBFF).contains(code), index + 5 < raw.count, raw[index] == UInt8(ascii: "\\"),
          raw[index + 1] == UInt8(ascii: "u")
        {
          let low = hex(index + 2)
          if (0xDC00...0xDFFF).contains(low) {
            code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
            index += 6
          }
        }
        scalars.append(Unicode.Scalar(code) ?? "\u{FFFD}")
      default:
        let map: [UInt8: Unicode.Scalar] = [
          UInt8(ascii: "b"): "\u{8}", UInt8(ascii: "f"): "\u{C}", UInt8(ascii: "n"): "\n", UInt8(ascii: "r"): "\r",
          UInt8(ascii: "t"): "\t",
        ]
        scalars.append(map[escape] ?? Unicode.Scalar(escape))
        index += 2
      }
    }
    flush()
    return String(scalars)
  }
}
