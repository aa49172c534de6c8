/// The writer of the subprocess protocol's messages (the harness writes them itself): fields in the order given, strings
/// carried exactly, pure ASCII.
extension JSONSyntax {
  /// The value as one line of compact JSON, ending in `\n`.
  static func line(_ value: Value) -> [UInt8] {
    var out: [UInt8] = []
    out.reserveCapacity(1024)
    write(value, into: &out)
    out.append(UInt8(ascii: "\n"))
    return out
  }

  private static func write(_ value: Value, into out: inout [UInt8]) {
    switch value {
    case .string(let string): quote(string, into: &out)
    case .number(let text): out += text.utf8
    case .bool(let flag): out += (flag ? "true" : "false").utf8
    case .null: out += "null".utf8
    case .array(let items):
      out.append(UInt8(ascii: "["))
      for (index, item) in items.enumerated() {
        if index > 0 { out.append(UInt8(ascii: ",")) }
        write(item, into: &out)
      }
      out.append(UInt8(ascii: "]"))
    case .object(let fields):
      out.append(UInt8(ascii: "{"))
      for (index, (name, item)) in fields.enumerated() {
        if index > 0 { out.append(UInt8(ascii: ",")) }
        quote(name, into: &out)
        out.append(UInt8(ascii: ":"))
        write(item, into: &out)
      }
      out.append(UInt8(ascii: "}"))
    }
  }

  /// A JSON string (RFC 8259 §7) in pure ASCII: `"` and `\` escaped, and every scalar outside printable ASCII as a
  /// `\u` escape (a surrogate pair above U+FFFF), so no reader splits a line inside a string (U+2028) and the
  /// implementation's text encoding of stdin cannot matter. Nothing is normalized: each scalar is written as it is.
  static func quote(_ string: String, into out: inout [UInt8]) {
    out.append(UInt8(ascii: "\""))
    // Most strings (URLs, ids) are printable ASCII with nothing to escape: their bytes as they are.
    let plain =
      string.utf8.withContiguousStorageIfAvailable { bytes in
        guard bytes.allSatisfy({ $0 >= 0x20 && $0 < 0x7F && $0 != 0x22 && $0 != 0x5C }) else { return false }
        out.append(contentsOf: bytes)
        return true
      } ?? false
    if plain {
      out.append(UInt8(ascii: "\""))
      return
    }
    for scalar in string.unicodeScalars {
      switch scalar.value {
      case 0x22: out += [UInt8(ascii: "\\"), UInt8(ascii: "\"")]
      case 0x5C: out += [UInt8(ascii: "\\"), UInt8(ascii: "\\")]
      case 0x0A: out += [UInt8(ascii: "\\"), UInt8(ascii: "n")]
      case 0x0D: out += [UInt8(ascii: "\\"), UInt8(ascii: "r")]
      case 0x09: out += [UInt8(ascii: "\\"), UInt8(ascii: "t")]
      case 0x20...0x7E: out.append(UInt8(scalar.value))
      case 0x10000...:
        let value = scalar.value - 0x10000
        escape(0xD800 + (value >> 10), into: &out)
        escape(0xDC00 + (value & 0x3FF), into: &out)
      default: escape(scalar.value, into: &out)
      }
    }
    out.append(UInt8(ascii: "\""))
  }

  /// `\uXXXX` for one UTF-16 code unit.
  private static func escape(_ unit: UInt32, into out: inout [UInt8]) {
    out += [UInt8(ascii: "\\"), UInt8(ascii: "u")]
    for shift in stride(from: 12, through: 0, by: -4) {
      let digit = UInt8(unit >> UInt32(shift) & 0xF)
      out.append(digit < 10 ? UInt8(ascii: "0") + digit : UInt8(ascii: "a") + digit - 10)
    }
  }
}
