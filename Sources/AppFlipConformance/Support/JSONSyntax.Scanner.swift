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
          var duplicate = problem(at: keyStart, "the field \(Quoted.string(key)) appears twice in one object; keep one")
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
          "the number \(Quoted.string(text, limit: 40)) is beyond what a JSON reader holds (±1.8e308); write a smaller one"
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
    let (line, column) = bytes.lineAndColumn(of: min(offset, bytes.count))
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

extension UnsafeBufferPointer<UInt8> {
  /// The 1-based line and column (in characters: bytes that do not continue a UTF-8 sequence) of the byte at
  /// `offset`, for a message about a text file (JSON files, JUnit reports).
  func lineAndColumn(of offset: Int) -> (line: Int, column: Int) {
    var line = 1
    var column = 1
    for byte in UnsafeBufferPointer(rebasing: self[0..<offset]) {
      if byte == 0x0A {
        line += 1
        column = 1
      } else if byte & 0xC0 != 0x80 {
        column += 1
      }
    }
    return (line, column)
  }
}
