/// A small JSON reader for the implementation's ordinary lines: it reads what it is sure of and gives up (nil) on
/// anything else — a duplicate key, a fraction, a byte outside printable ASCII, a lone surrogate, deep nesting — so the
/// caller falls back to `JSONDecoder`, whose errors name the field. It exists because `JSONDecoder` was half of the
/// harness's time per step over `--exec`.
enum SubprocessFastJSON {
  /// A JSON value. Not `indirect`: arrays and objects keep their items on the heap already, and a boxed case would cost
  /// an allocation per value.
  enum Value {
    case null
    case bool(Bool)
    case int(Int)
    case string(String)
    case array([Value])
    case object(Object)
  }

  /// An object's fields in the order written, each name once. A protocol message has a handful, so a list searched
  /// in order is faster than hashing every name.
  struct Object {
    /// The fields.
    var fields: [(name: String, value: Value)] = []

    /// How many fields there are.
    var count: Int { fields.count }

    /// The value of the field `name`, if there is one.
    subscript(_ name: String) -> Value? {
      for field in fields where field.name == name { return field.value }
      return nil
    }

    /// Whether the fields are exactly `names`, in any order.
    func hasExactly(_ names: String...) -> Bool {
      fields.count == names.count && names.allSatisfy { self[$0] != nil }
    }
  }

  /// The most fields an object may have; a longer one is left to `JSONDecoder` (a list search would be quadratic).
  static let fieldLimit = 16

  /// The line's value, or nil when it is anything this reader does not read.
  static func parse(_ bytes: [UInt8]) -> Value? {
    bytes.withUnsafeBufferPointer { buffer in
      var reader = Reader(bytes: buffer)
      guard let value = reader.value(depth: 0) else { return nil }
      reader.skipSpace()
      return reader.position == buffer.count ? value : nil
    }
  }

  private struct Reader {
    let bytes: UnsafeBufferPointer<UInt8>
    var position = 0

    mutating func skipSpace() {
      while position < bytes.count, bytes[position] == 0x20 || bytes[position] == 0x09 || bytes[position] == 0x0D {
        position += 1
      }
    }

    mutating func value(depth: Int) -> Value? {
      skipSpace()
      guard position < bytes.count, depth < 8 else { return nil }
      switch bytes[position] {
      case UInt8(ascii: "{"): return object(depth: depth)
      case UInt8(ascii: "["): return array(depth: depth)
      case UInt8(ascii: "\""): return string().map(Value.string)
      case UInt8(ascii: "n"): return literal("null", .null)
      case UInt8(ascii: "t"): return literal("true", .bool(true))
      case UInt8(ascii: "f"): return literal("false", .bool(false))
      default: return integer()
      }
    }

    mutating func literal(_ word: StaticString, _ value: Value) -> Value? {
      let count = word.utf8CodeUnitCount
      guard position + count <= bytes.count else { return nil }
      for index in 0..<count where bytes[position + index] != word.utf8Start[index] { return nil }
      position += count
      return value
    }

    mutating func integer() -> Value? {
      var negative = false
      if bytes[position] == UInt8(ascii: "-") {
        negative = true
        position += 1
      }
      let start = position
      var number = 0
      while position < bytes.count, (0x30...0x39).contains(bytes[position]) {
        number = number * 10 + Int(bytes[position] - 0x30)
        position += 1
      }
      let digits = position - start
      guard digits > 0, digits <= 15, digits == 1 || bytes[start] != 0x30 else { return nil }
      if position < bytes.count,
        bytes[position] == UInt8(ascii: ".") || bytes[position] == UInt8(ascii: "e")
          || bytes[position] == UInt8(ascii: "E")
      {
        return nil
      }
      return .int(negative ? -number : number)
    }

    mutating func string() -> String? {
      position += 1  // the opening quote
      // Most strings are printable ASCII without an escape: their bytes as they are, at once.
      var end = position
      while end < bytes.count, bytes[end] >= 0x20, bytes[end] < 0x7F, bytes[end] != UInt8(ascii: "\""),
        bytes[end] != UInt8(ascii: "\\")
      {
        end += 1
      }
      if end < bytes.count, bytes[end] == UInt8(ascii: "\"") {
        defer { position = end + 1 }
        return String(decoding: UnsafeBufferPointer(rebasing: bytes[position..<end]), as: UTF8.self)
      }
      var scalars = String.UnicodeScalarView()
      while position < bytes.count {
        let byte = bytes[position]
        position += 1
        switch byte {
        case UInt8(ascii: "\""): return String(scalars)
        case UInt8(ascii: "\\"):
          guard position < bytes.count else { return nil }
          let escape = bytes[position]
          position += 1
          switch escape {
          case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): scalars.append(Unicode.Scalar(escape))
          case UInt8(ascii: "b"): scalars.append("\u{8}")
          case UInt8(ascii: "f"): scalars.append("\u{C}")
          case UInt8(ascii: "n"): scalars.append("\n")
          case UInt8(ascii: "r"): scalars.append("\r")
          case UInt8(ascii: "t"): scalars.append("\t")
          case UInt8(ascii: "u"):
            guard let unit = hex4() else { return nil }
            if (0xD800..<0xDC00).contains(unit) {
              guard position + 1 < bytes.count, bytes[position] == UInt8(ascii: "\\"),
                bytes[position + 1] == UInt8(ascii: "u")
              else { return nil }
              position += 2
              guard let low = hex4(), (0xDC00..<0xE000).contains(low),
                let scalar = Unicode.Scalar(0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00))
              else { return nil }
              scalars.append(scalar)
            } else {
              guard let scalar = Unicode.Scalar(unit) else { return nil }  // a lone low surrogate
              scalars.append(scalar)
            }
          default: return nil
          }
        case 0x20...0x7E: scalars.append(Unicode.Scalar(byte))
        default: return nil  // a control character, or UTF-8 that JSONDecoder should judge
        }
      }
      return nil
    }

    mutating func hex4() -> UInt32? {
      guard position + 4 <= bytes.count else { return nil }
      var unit: UInt32 = 0
      for _ in 0..<4 {
        let byte = bytes[position]
        position += 1
        let digit: UInt32
        switch byte {
        case 0x30...0x39: digit = UInt32(byte - 0x30)
        case 0x41...0x46: digit = UInt32(byte - 0x41 + 10)
        case 0x61...0x66: digit = UInt32(byte - 0x61 + 10)
        default: return nil
        }
        unit = unit << 4 | digit
      }
      return unit
    }

    mutating func array(depth: Int) -> Value? {
      position += 1
      var items: [Value] = []
      skipSpace()
      if position < bytes.count, bytes[position] == UInt8(ascii: "]") {
        position += 1
        return .array(items)
      }
      while true {
        guard let item = value(depth: depth + 1) else { return nil }
        items.append(item)
        skipSpace()
        guard position < bytes.count else { return nil }
        position += 1
        if bytes[position - 1] == UInt8(ascii: "]") { return .array(items) }
        guard bytes[position - 1] == UInt8(ascii: ",") else { return nil }
      }
    }

    mutating func object(depth: Int) -> Value? {
      position += 1
      var object = Object()
      skipSpace()
      if position < bytes.count, bytes[position] == UInt8(ascii: "}") {
        position += 1
        return .object(object)
      }
      while true {
        skipSpace()
        guard position < bytes.count, bytes[position] == UInt8(ascii: "\""), let key = string() else { return nil }
        skipSpace()
        guard position < bytes.count, bytes[position] == UInt8(ascii: ":") else { return nil }
        position += 1
        guard let item = value(depth: depth + 1), object[key] == nil, object.count < fieldLimit else { return nil }
        object.fields.append((key, item))
        skipSpace()
        guard position < bytes.count else { return nil }
        position += 1
        if bytes[position - 1] == UInt8(ascii: "}") { return .object(object) }
        guard bytes[position - 1] == UInt8(ascii: ",") else { return nil }
      }
    }
  }
}
