import Foundation

/// A strict scan of JSON bytes before decoding (RFC 8259): refuses what Foundation's decoders let through or report
/// badly — a duplicate key (RFC 8259 §4: names SHOULD be unique; a decoder silently keeps one), a trailing comma,
/// nesting deeper than `maxDepth` — and gives every syntax error its line and column.
enum JSONSyntax {
  /// The deepest nesting of arrays and objects a file may have.
  static let maxDepth = 512

  /// Why bytes are not acceptable JSON, with where.
  struct Problem: Error, Sendable, Hashable, CustomStringConvertible {
    /// 1-based line.
    var line: Int
    /// 1-based column, in characters.
    var column: Int
    /// What is wrong there, in words.
    var reason: String
    /// The path of the duplicated field (`vectors[2].expect.reply.state`), for a duplicate key only.
    var duplicateField: String?

    /// `line L, column C: reason`.
    var description: String { "line \(line), column \(column): \(reason)" }
  }

  /// The first problem in these bytes, or `nil` when they are strict JSON.
  static func problem(in data: Data) -> Problem? {
    data.withUnsafeBytes { buffer in
      var scanner = Scanner(bytes: buffer.bindMemory(to: UInt8.self))
      do {
        try scanner.document()
        return nil
      } catch {
        return error as? Problem
      }
    }
  }

  private enum PathPart {
    case key(String)
    case index(Int)
  }

  private struct Scanner {
    let bytes: UnsafeBufferPointer<UInt8>
    var position = 0
    var path: [PathPart] = []

    init(bytes: UnsafeBufferPointer<UInt8>) {
      self.bytes = bytes
    }

    mutating func document() throws(Problem) {
      if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { position = 3 }
      skipSpace()
      guard position < bytes.count else { throw problem("the file is empty; it must hold one JSON value") }
      try value(depth: 0)
      skipSpace()
      if position < bytes.count { throw problem("unexpected \(shown()) after the end of the JSON value") }
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

    /// Scans a string; returns its decoded text when `keep` (field names), else "".
    mutating func string(keep: Bool) throws(Problem) -> String {
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

    func unescape(_ raw: UnsafeBufferPointer<UInt8>, at offset: Int) throws(Problem) -> String {
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

    mutating func number() throws(Problem) {
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
      if peek(UInt8(ascii: "e")) || peek(UInt8(ascii: "E")) {
        position += 1
        if peek(UInt8(ascii: "+")) || peek(UInt8(ascii: "-")) { position += 1 }
        guard position < bytes.count, isDigit(bytes[position]) else {
          throw problem("a digit must follow the exponent")
        }
        while position < bytes.count, isDigit(bytes[position]) { position += 1 }
      }
    }

    mutating func literal(_ word: StaticString) throws(Problem) {
      let length = word.utf8CodeUnitCount
      let expected = UnsafeBufferPointer(start: word.utf8Start, count: length)
      guard position + length <= bytes.count, bytes[position..<(position + length)].elementsEqual(expected) else {
        throw problem("expected a value, found \(shown()) (strings need double quotes)")
      }
      position += length
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
      let end = min(bytes.count, position + 4)
      let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[position..<end]), as: UTF8.self)
      return Quoted.string(String(text.prefix(1)))
    }

    func problem(_ reason: String) -> Problem { problem(at: position, reason) }

    func problem(at offset: Int, _ reason: String) -> Problem {
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
      return Problem(line: line, column: column, reason: reason)
    }

    func fieldPath(_ parts: [PathPart]) -> String {
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
}
