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

    mutating func document() throws(Problem) {
      if let encoding = wideEncoding() {
        throw problem("the file is \(encoding), not UTF-8; save it as UTF-8")
      }
      if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { position = 3 }
      skipSpace()
      guard position < bytes.count else { throw problem("the file is empty; it must hold one JSON value") }
      try value(depth: 0)
      skipSpace()
      if position < bytes.count { throw problem("unexpected \(shown()) after the end of the JSON value") }
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

    mutating func value(depth: Int) throws(Problem) {
      guard depth < maxDepth else { throw problem("nesting goes deeper than \(maxDepth) levels") }
      guard position < bytes.count else { throw problem("the file ends where a value should be") }
      switch bytes[position] {
      case UInt8(ascii: "{"): try object(depth: depth + 1)
      case UInt8(ascii: "["): try array(depth: depth + 1)
      case UInt8(ascii: "\""): _ = try string(keep: false)
      case UInt8(ascii: "t"): try literal("true")
      case UInt8(ascii: "f"): try literal("false")
      case UInt8(ascii: "n"): try literal("null")
      case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): try number()
      default: throw problem("expected a value, found \(shown())")
      }
    }

    mutating func object(depth: Int) throws(Problem) {
      position += 1
      var keys = Set<String>()
      skipSpace()
      if peek(UInt8(ascii: "}")) {
        position += 1
        return
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
        path.append(.key(key))
        try value(depth: depth)
        path.removeLast()
        skipSpace()
        if peek(UInt8(ascii: ",")) {
          position += 1
          continue
        }
        if peek(UInt8(ascii: "}")) {
          position += 1
          return
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

    mutating func array(depth: Int) throws(Problem) {
      position += 1
      skipSpace()
      if peek(UInt8(ascii: "]")) {
        position += 1
        return
      }
      var index = 0
      while true {
        skipSpace()
        if peek(UInt8(ascii: "]")) { throw problem("a trailing comma before ']'; remove it") }
        path.append(.index(index))
        try value(depth: depth)
        path.removeLast()
        index += 1
        skipSpace()
        if peek(UInt8(ascii: ",")) {
          position += 1
          continue
        }
        if peek(UInt8(ascii: "]")) {
          position += 1
          return
        }
        throw problem("expected ',' or ']' after an array element, found \(shown())")
      }
    }
  }
}
