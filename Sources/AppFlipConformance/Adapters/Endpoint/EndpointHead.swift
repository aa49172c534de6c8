import Foundation

/// The status line and header fields of an HTTP/1.1 answer (RFC 9112 §4, §5), as received.
struct EndpointHead: Sendable, Hashable {
  /// The status code.
  var status: Int
  /// The header fields in order, names lowercased, values as bytes with surrounding whitespace trimmed.
  var fields: [(name: String, value: [UInt8])]

  static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.status == rhs.status && lhs.fields.elementsEqual(rhs.fields) { $0.name == $1.name && $0.value == $1.value }
  }

  func hash(into hasher: inout Hasher) {
    hasher.combine(status)
    for field in fields {
      hasher.combine(field.name)
      hasher.combine(field.value)
    }
  }

  /// Parses the bytes before the blank line; anything but `HTTP/1.x NNN …` is an error that quotes the start.
  init(_ bytes: [UInt8], url: String) throws(EndpointError) {
    var lines = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).map { line in
      line.last == UInt8(ascii: "\r") ? line.dropLast() : line
    }
    let statusLine = lines.isEmpty ? [] : Array(lines.removeFirst())
    let words = statusLine.split(separator: UInt8(ascii: " "), maxSplits: 2, omittingEmptySubsequences: false)
    guard words.count >= 2, words[0].starts(with: Array("HTTP/1.".utf8)), words[1].count == 3,
      words[1].allSatisfy({ (0x30...0x39).contains($0) }), let status = Int(String(decoding: words[1], as: UTF8.self))
    else {
      throw .notHTTP(url: url, start: EndpointPageText.printable(statusLine.prefix(60)))
    }
    self.status = status
    fields = []
    for line in lines where !line.isEmpty {
      guard let colon = line.firstIndex(of: UInt8(ascii: ":")), colon > line.startIndex else {
        throw .notHTTP(url: url, start: EndpointPageText.printable(line.prefix(60)))
      }
      let name = String(decoding: line[..<colon], as: UTF8.self).lowercased()
      let value = line[line.index(after: colon)...].drop { $0 == 0x20 || $0 == 0x09 }
      let trimmed = value.reversed().drop { $0 == 0x20 || $0 == 0x09 }.reversed()
      fields.append((name, Array(trimmed)))
    }
  }

  /// The values of a header (name lowercased) as text, joined with `", "` when it comes more than once.
  func value(_ name: String) -> String? {
    let values = fields.filter { $0.name == name }.map { String(decoding: $0.value, as: UTF8.self) }
    return values.isEmpty ? nil : values.joined(separator: ", ")
  }

  /// Where the head ends in `bytes`: the index of its blank line and the index after it (CRLF CRLF, or bare LFs).
  static func end(in bytes: [UInt8], from start: Int) -> (start: Int, after: Int)? {
    var index = start
    while index < bytes.count {
      if bytes[index] == UInt8(ascii: "\n") {
        if index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "\n") { return (index, index + 2) }
        if index + 2 < bytes.count, bytes[index + 1] == UInt8(ascii: "\r"), bytes[index + 2] == UInt8(ascii: "\n") {
          return (index, index + 3)
        }
      }
      index += 1
    }
    return nil
  }

  /// The decoded body of a complete chunked transfer coding (RFC 9112 §7.1), or `nil` while the last chunk is missing.
  static func dechunk(_ bytes: [UInt8]) -> [UInt8]? {
    var body: [UInt8] = []
    var index = 0
    while true {
      guard let lineEnd = bytes[index...].firstIndex(of: UInt8(ascii: "\n")) else { return nil }
      let sizeText = String(decoding: bytes[index..<lineEnd], as: UTF8.self)
        .prefix { $0 != ";" && $0 != "\r" }.trimmingCharacters(in: .whitespaces)
      guard let size = Int(sizeText, radix: 16), size >= 0 else { return body }
      if size == 0 { return body }
      let start = lineEnd + 1
      guard start + size <= bytes.count else { return nil }
      body += bytes[start..<start + size]
      index = start + size
      while index < bytes.count, bytes[index] == UInt8(ascii: "\r") || bytes[index] == UInt8(ascii: "\n") {
        index += 1
      }
      guard index < bytes.count else { return nil }
    }
  }
}
