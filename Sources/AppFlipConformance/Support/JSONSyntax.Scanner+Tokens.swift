/// Numbers, literals and white space, and where a problem is: its line, column and field path.
extension JSONSyntax.Scanner {
  mutating func number() throws(JSONSyntax.Problem) {
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
    guard exponent || position - start > 300 else { return }
    let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self)
    if let number = Double(text), !number.isFinite {
      throw problem(
        at: start,
        inField(
          "the number \(Quoted.capped(text, limit: 40)) is beyond what a JSON reader holds (±1.8e308); write a smaller one"
        ))
    }
  }

  mutating func literal(_ word: StaticString) throws(JSONSyntax.Problem) {
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
