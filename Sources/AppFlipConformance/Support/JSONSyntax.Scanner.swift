import Foundation

extension JSONSyntax {
  /// A step of the path to the value being scanned: a field name or an array index.
  enum PathPart {
    case key(String)
    case index(Int)
  }

  /// Scans bytes as one JSON value, tracking where it is; throws the first problem.
  struct Scanner {
    let bytes: UnsafeBufferPointer<UInt8>
    var position = 0
    var path: [PathPart] = []
    /// The deepest nesting it reads: the scan recurses once a level, so this bounds the stack it takes.
    var maxDepth = JSONSyntax.maxDepth
    /// Whether the scan keeps what it reads (`JSONSyntax.value(of:)`), and then no path, since `value(of:)` keeps no
    /// problem; a plain check returns `.null` for every value.
    var keep = false

    @discardableResult
    mutating func document() throws(Problem) -> Value {
      if let encoding = wideEncoding() {
        throw problem("the file is \(encoding), not UTF-8; save it as UTF-8")
      }
      if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { position = 3 }
      skipSpace()
      guard position < bytes.count else { throw problem("the file is empty; it must hold one JSON value") }
      let value = try value(depth: 0)
      skipSpace()
      if position < bytes.count { throw problem("unexpected \(shown()) after the end of the JSON value") }
      return value
    }

    /// The encoding of a file written in UTF-16 or UTF-32, which JSON files must not be (RFC 8259 §8.1), in words.
    func wideEncoding() -> String? {
      if bytes.starts(with: [0xFF, 0xFE, 0, 0]) || bytes.starts(with: [0, 0, 0xFE, 0xFF]) {
        return "UTF-32 (it starts with a UTF-32 byte-order mark)"
      }
      if bytes.starts(with: [0xFF, 0xFE]) || bytes.starts(with: [0xFE, 0xFF]) {
        return "UTF-16 (it starts with a UTF-16 byte-order mark)"
      }
      guard bytes.count >= 2, bytes[0] == 0 || bytes[1] == 0 else { return nil }
      return "UTF-16 or UTF-32 (NUL bytes stand between its first characters)"
    }

    @discardableResult
    mutating func value(depth: Int) throws(Problem) -> Value {
      guard depth < maxDepth else { throw problem("nesting goes deeper than \(maxDepth) levels") }
      guard position < bytes.count else { throw problem("the file ends where a value should be") }
      switch bytes[position] {
      case UInt8(ascii: "{"): return try object(depth: depth + 1)
      case UInt8(ascii: "["): return try array(depth: depth + 1)
      case UInt8(ascii: "\""): return .string(try string(keep: keep))
      case UInt8(ascii: "t"): return try literal("true", .bool(true))
      case UInt8(ascii: "f"): return try literal("false", .bool(false))
      case UInt8(ascii: "n"): return try literal("null", .null)
      case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try number()
      default: throw problem("expected a value, found \(shown())")
      }
    }

    mutating func object(depth: Int) throws(Problem) -> Value {
      position += 1
      var keys = Set<String>()
      var fields: [(name: String, value: Value)] = []
      skipSpace()
      if peek(UInt8(ascii: "}")) {
        position += 1
        return .object(fields)
      }
      while true {
        skipSpace()
        guard peek(UInt8(ascii: "\"")) else {
          if peek(UInt8(ascii: "}")) { throw problem("a trailing comma before '}'; remove it") }
          throw problem("expected a field name in double quotes, found \(shown())")
        }
        let keyStart = position
        let key = try string(keep: true)
        if !keys.insert(key).inserted {
          let field = fieldPath(path + [.key(key)])
          var duplicate = problem(at: keyStart, "the field \(Quoted.capped(key)) appears twice in one object; keep one")
          duplicate.duplicateField = field
          throw duplicate
        }
        skipSpace()
        guard peek(UInt8(ascii: ":")) else { throw problem("expected ':' after the field name, found \(shown())") }
        position += 1
        skipSpace()
        if !keep { path.append(.key(key)) }
        let item = try value(depth: depth)
        if keep { fields.append((key, item)) } else { path.removeLast() }
        skipSpace()
        if peek(UInt8(ascii: ",")) {
          position += 1
          continue
        }
        if peek(UInt8(ascii: "}")) {
          position += 1
          return .object(fields)
        }
        throw problem("expected ',' or '}' after a field, found \(shown())")
      }
    }

    /// The ranges of the array field `key` of the top-level object and of its elements (`JSONSyntax.arrayRanges`).
    mutating func arrayRanges(of key: String) throws(Problem) -> ArrayRanges? {
      if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { position = 3 }
      skipSpace()
      guard peek(UInt8(ascii: "{")) else { return nil }
      position += 1
      while true {
        skipSpace()
        guard peek(UInt8(ascii: "\"")) else { return nil }
        let name = try string(keep: true)
        skipSpace()
        position += 1  // ':'
        skipSpace()
        if name == key && peek(UInt8(ascii: "[")) {
          let start = position
          var elements: [Range<Int>] = []
          position += 1
          skipSpace()
          while !peek(UInt8(ascii: "]")) && position < bytes.count {
            let element = position
            try value(depth: 1)
            elements.append(element..<position)
            skipSpace()
            if peek(UInt8(ascii: ",")) { position += 1 }
            skipSpace()
          }
          return ArrayRanges(array: start..<(position + 1), elements: elements)
        }
        try value(depth: 1)
        skipSpace()
        guard peek(UInt8(ascii: ",")) else { return nil }
        position += 1
      }
    }

    mutating func array(depth: Int) throws(Problem) -> Value {
      position += 1
      var items: [Value] = []
      skipSpace()
      if peek(UInt8(ascii: "]")) {
        position += 1
        return .array(items)
      }
      var index = 0
      while true {
        skipSpace()
        if peek(UInt8(ascii: "]")) { throw problem("a trailing comma before ']'; remove it") }
        if !keep { path.append(.index(index)) }
        let item = try value(depth: depth)
        if keep { items.append(item) } else { path.removeLast() }
        index += 1
        skipSpace()
        if peek(UInt8(ascii: ",")) {
          position += 1
          continue
        }
        if peek(UInt8(ascii: "]")) {
          position += 1
          return .array(items)
        }
        throw problem("expected ',' or ']' after an array element, found \(shown())")
      }
    }
  }
}

/// Numbers, literals and white space, and where a problem is: its line, column and field path.
extension JSONSyntax.Scanner {
  mutating func number() throws(JSONSyntax.Problem) -> JSONSyntax.Value {
    let start = position
    if peek(UInt8(ascii: "-")) { position += 1 }
    guard position < bytes.count, isDigit(bytes[position]) else {
      position = start
      throw problem("a number must have a digit after '-'")
    }
    if bytes[position] == UInt8(ascii: "0") {
      position += 1
      if position < bytes.count, isDigit(bytes[position]) {
        position = start
        throw problem("a number must not start with 0")
      }
    } else {
      while position < bytes.count, isDigit(bytes[position]) { position += 1 }
    }
    if peek(UInt8(ascii: ".")) {
      position += 1
      guard position < bytes.count, isDigit(bytes[position]) else { throw problem("a digit must follow '.'") }
      while position < bytes.count, isDigit(bytes[position]) { position += 1 }
    }
    let exponent = peek(UInt8(ascii: "e")) || peek(UInt8(ascii: "E"))
    if exponent {
      position += 1
      if peek(UInt8(ascii: "+")) || peek(UInt8(ascii: "-")) { position += 1 }
      guard position < bytes.count, isDigit(bytes[position]) else {
        throw problem("a digit must follow the exponent")
      }
      while position < bytes.count, isDigit(bytes[position]) { position += 1 }
    }
    // A number no reader can hold (Foundation's decoders then fail on the whole file without saying where).
    guard keep || exponent || position - start > 300 else { return .null }
    let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self)
    if exponent || position - start > 300, let number = Double(text), !number.isFinite {
      throw problem(
        at: start,
        inField(
          "the number \(Quoted.capped(text, limit: 40)) is beyond what a JSON reader holds (±1.8e308); write a smaller one"
        ))
    }
    return .number(text)
  }

  mutating func literal(_ word: StaticString, _ value: JSONSyntax.Value) throws(JSONSyntax.Problem) -> JSONSyntax.Value
  {
    let length = word.utf8CodeUnitCount
    let expected = UnsafeBufferPointer(start: word.utf8Start, count: length)
    guard position + length <= bytes.count, bytes[position..<(position + length)].elementsEqual(expected) else {
      throw problem("expected a value, found \(shown()) (strings need double quotes)")
    }
    position += length
    return value
  }

  mutating func skipSpace() {
    while position < bytes.count {
      switch bytes[position] {
      case 0x20, 0x09, 0x0A, 0x0D: position += 1
      default: return
      }
    }
  }

  func peek(_ byte: UInt8) -> Bool { position < bytes.count && bytes[position] == byte }
  func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
  func isHex(_ byte: UInt8) -> Bool {
    isDigit(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte | 0x20)
  }

  /// What is at the current position, for a message: a quoted character, or "the end of the file".
  func shown() -> String {
    guard position < bytes.count else { return "the end of the file" }
    if bytes[position] >= 0x80, utf8Length() == 0 { return notUTF8().dropLast() + " (save the file as UTF-8)" }
    let end = min(bytes.count, position + 4)
    let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[position..<end]), as: UTF8.self)
    return Quoted.string(String(text.prefix(1)))
  }

  func problem(_ reason: String) -> JSONSyntax.Problem { problem(at: position, reason) }

  func problem(at offset: Int, _ reason: String) -> JSONSyntax.Problem {
    var line = 1
    var column = 1
    for byte in UnsafeBufferPointer(rebasing: bytes[0..<min(offset, bytes.count)]) {
      if byte == 0x0A {
        line += 1
        column = 1
      } else if byte & 0xC0 != 0x80 {
        column += 1
      }
    }
    return JSONSyntax.Problem(line: line, column: column, reason: reason)
  }

  func fieldPath(_ parts: [JSONSyntax.PathPart]) -> String {
    var out = ""
    for part in parts {
      switch part {
      case .index(let index): out += "[\(index)]"
      case .key(let key): out += out.isEmpty ? key : ".\(key)"
      }
    }
    return out
  }
}

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
          guard position + 5 < bytes.count, (2...5).allSatisfy({ isHex(bytes[position + $0]) }) else {
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
    let code = hex(at: position + 2)
    if (0xDC00...0xDFFF).contains(code) { throw problem(inField(halfPair(code))) }
    position += 6
    guard (0xD800...0xDBFF).contains(code) else { return }
    guard position + 5 < bytes.count, bytes[position] == UInt8(ascii: "\\"), bytes[position + 1] == UInt8(ascii: "u"),
      (2...5).allSatisfy({ isHex(bytes[position + $0]) }), (0xDC00...0xDFFF).contains(hex(at: position + 2))
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

  /// The four hex digits at `offset` as a number.
  func hex(at offset: Int) -> UInt32 { Self.hex(bytes, at: offset) }

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
