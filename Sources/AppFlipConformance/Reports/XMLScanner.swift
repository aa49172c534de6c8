/// Reads an XML document from its UTF-8 bytes in one pass into its elements: each with its decoded attributes, where
/// its bytes are, and the elements inside it (text, comments and the rest are not kept).
///
/// Enough XML for JUnit from any tool: the declaration, processing instructions, comments, CDATA, character and the
/// five predefined entity references, single- or double-quoted attributes. It checks well-formedness (tags match, one
/// root, no stray markup) and refuses a DOCTYPE (no JUnit report has one, and entities it declares could expand
/// without bound), a document that is not UTF-8, and nesting deeper than `maxDepth`, before it could exhaust anything.
struct XMLScanner {
  /// An element.
  struct Element {
    /// The element's name, e.g. `testcase`.
    var name: String
    /// The attributes in document order, their values decoded.
    var attributes: [(name: String, value: String)]
    /// Its bytes, from the start tag's `<` to just past its end tag.
    var range: Range<Int>
    /// The elements inside it, in document order.
    var children: [Element] = []

    /// The value of the first attribute with this name.
    subscript(_ name: String) -> String? { attributes.first { $0.name == name }?.value }

    /// Whether an element with this name is among its children.
    func has(_ child: String) -> Bool { children.contains { $0.name == child } }
  }

  /// Why a document cannot be read, in words.
  struct ParseError: Error, Sendable, Hashable {
    var reason: String
  }

  /// The deepest element nesting read; JUnit needs four levels.
  static let maxDepth = 64

  private let bytes: UnsafeBufferPointer<UInt8>
  private var index = 0

  /// The root element of a document, with every element in it; its ranges are offsets into `text`'s UTF-8.
  static func root(of text: String) throws(ParseError) -> Element {
    var text = text
    return try text.withUTF8 { bytes in
      Result { () throws(ParseError) in
        var scanner = XMLScanner(bytes: bytes)
        return try scanner.run()
      }
    }.get()
  }

  private mutating func run() throws(ParseError) -> Element {
    if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3 }
    var open: [Element] = []
    var root: Element?
    /// Adds an element that ended to the one it is in, or makes it the root.
    func close(_ element: Element) {
      if open.isEmpty { root = element } else { open[open.count - 1].children.append(element) }
    }
    while index < bytes.count {
      let byte = bytes[index]
      if byte != UInt8(ascii: "<") {
        if open.isEmpty {
          guard Self.isSpace(byte) else { throw malformed() }
          index += 1
        } else {
          try text()
        }
        continue
      }
      let tagStart = index
      guard index + 1 < bytes.count else { throw malformed() }
      switch bytes[index + 1] {
      case UInt8(ascii: "?"):
        try skip(past: "?>")
      case UInt8(ascii: "!"):
        if matches("<!--") {
          try skip(past: "-->")
        } else if matches("<![CDATA["), !open.isEmpty {
          try skip(past: "]]>")
        } else if matches("<!DOCTYPE") {
          throw ParseError(reason: "it has a DOCTYPE, which no JUnit report has")
        } else {
          throw malformed()
        }
      case UInt8(ascii: "/"):
        index += 2
        let name = try self.name()
        skipSpace()
        guard expect(">"), var last = open.popLast(), last.name == name else { throw malformed(at: tagStart) }
        last.range = last.range.lowerBound..<index
        close(last)
      default:
        guard !open.isEmpty || root == nil else { throw malformed() }
        guard open.count < Self.maxDepth else {
          throw ParseError(reason: "elements nest deeper than \(Self.maxDepth) levels, which no JUnit report does")
        }
        index += 1
        var element = Element(name: try self.name(), attributes: [], range: tagStart..<tagStart)
        while true {
          let hadSpace = skipSpace()
          if expect("/>") {
            element.range = tagStart..<index
            close(element)
            break
          }
          if expect(">") {
            open.append(element)
            break
          }
          guard hadSpace else { throw malformed() }
          let attribute = try self.name()
          skipSpace()
          guard expect("=") else { throw malformed() }
          skipSpace()
          let value = try attributeValue()
          guard element[attribute] == nil else { throw malformed() }
          element.attributes.append((attribute, value))
        }
      }
    }
    guard let root, open.isEmpty else { throw malformed() }
    return root
  }

  // MARK: Pieces

  /// Character data up to the next `<`, with its references checked.
  private mutating func text() throws(ParseError) {
    while index < bytes.count, bytes[index] != UInt8(ascii: "<") {
      if bytes[index] == UInt8(ascii: "&") {
        _ = try reference()
      } else {
        index += 1
      }
    }
  }

  /// A quoted attribute value, decoded: references resolved, literal line breaks and tabs read as spaces.
  private mutating func attributeValue() throws(ParseError) -> String {
    guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") || bytes[index] == UInt8(ascii: "'") else {
      throw malformed()
    }
    let quote = bytes[index]
    index += 1
    let valueStart = index
    var plain = true
    while index < bytes.count, bytes[index] != quote {
      let byte = bytes[index]
      if byte == UInt8(ascii: "<") { throw malformed() }
      if byte == UInt8(ascii: "&") || byte == 0x09 || byte == 0x0A || byte == 0x0D { plain = false }
      index += 1
    }
    guard index < bytes.count else { throw malformed() }
    let valueEnd = index
    index += 1
    if plain { return String(decoding: UnsafeBufferPointer(rebasing: bytes[valueStart..<valueEnd]), as: UTF8.self) }
    var decoded: [UInt8] = []
    decoded.reserveCapacity(valueEnd - valueStart)
    var position = valueStart
    let resume = index
    while position < valueEnd {
      let byte = bytes[position]
      if byte == UInt8(ascii: "&") {
        index = position
        decoded.append(contentsOf: try reference().utf8)
        position = index
      } else {
        decoded.append(byte == 0x09 || byte == 0x0A || byte == 0x0D ? UInt8(ascii: " ") : byte)
        position += 1
      }
    }
    index = resume
    return String(decoding: decoded, as: UTF8.self)
  }

  /// The text of a reference at `&`: one of the five predefined entities or a character reference.
  private mutating func reference() throws(ParseError) -> String {
    let referenceStart = index
    index += 1
    let nameStart = index
    while index < bytes.count, bytes[index] != UInt8(ascii: ";"), index - nameStart < 12 { index += 1 }
    guard index < bytes.count, bytes[index] == UInt8(ascii: ";") else { throw malformed(at: referenceStart) }
    let name = String(decoding: UnsafeBufferPointer(rebasing: bytes[nameStart..<index]), as: UTF8.self)
    index += 1
    switch name {
    case "amp": return "&"
    case "lt": return "<"
    case "gt": return ">"
    case "quot": return "\""
    case "apos": return "'"
    default:
      let number: UInt32?
      if name.hasPrefix("#x") {
        number = UInt32(name.dropFirst(2), radix: 16)
      } else if name.hasPrefix("#") {
        number = UInt32(name.dropFirst(), radix: 10)
      } else {
        number = nil
      }
      guard let number, let scalar = Unicode.Scalar(number) else { throw malformed(at: referenceStart) }
      return String(Character(scalar))
    }
  }

  /// A tag or attribute name.
  private mutating func name() throws(ParseError) -> String {
    let nameStart = index
    while index < bytes.count {
      let byte = bytes[index]
      if Self.isSpace(byte) || byte == UInt8(ascii: ">") || byte == UInt8(ascii: "/") || byte == UInt8(ascii: "=")
        || byte == UInt8(ascii: "<") || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'")
      {
        break
      }
      index += 1
    }
    guard index > nameStart else { throw malformed() }
    return String(decoding: UnsafeBufferPointer(rebasing: bytes[nameStart..<index]), as: UTF8.self)
  }

  /// Skips blanks; whether there were any.
  @discardableResult
  private mutating func skipSpace() -> Bool {
    let before = index
    while index < bytes.count, Self.isSpace(bytes[index]) { index += 1 }
    return index > before
  }

  /// Consumes `literal` if the bytes at the current position are it.
  private mutating func expect(_ literal: StaticString) -> Bool {
    guard matches(literal) else { return false }
    index += literal.utf8CodeUnitCount
    return true
  }

  private func matches(_ literal: StaticString) -> Bool {
    let count = literal.utf8CodeUnitCount
    guard index + count <= bytes.count else { return false }
    let pointer = literal.utf8Start
    for offset in 0..<count where bytes[index + offset] != pointer[offset] { return false }
    return true
  }

  /// Moves past the next `terminator`.
  private mutating func skip(past terminator: StaticString) throws(ParseError) {
    let from = index
    while index < bytes.count {
      if matches(terminator) {
        index += terminator.utf8CodeUnitCount
        return
      }
      index += 1
    }
    throw malformed(at: from)
  }

  private static func isSpace(_ byte: UInt8) -> Bool {
    byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
  }

  /// "not well-formed XML near line L, column C" for the current position (or `offset`).
  private func malformed(at offset: Int? = nil) -> ParseError {
    let (line, column) = bytes.lineAndColumn(of: min(offset ?? index, bytes.count))
    return ParseError(reason: "not well-formed XML near line \(line), column \(column)")
  }
}
