import Foundation

/// The status line and header fields of an HTTP/1.1 answer (RFC 9112 §4, §5), as received.
struct EndpointHead: Sendable, Hashable {
  /// The status code.
  var status: Int
  /// The header fields in order, names lowercased, values as bytes with surrounding whitespace trimmed.
  var fields: [Field]
  /// The first raw CR, LF or NUL inside a field value, which RFC 9110 §5.5 forbids (APPFLIP-RULES AF-EP-6).
  var rawControl: RawControl?

  /// Where a raw CR, LF or NUL was found in a field.
  struct RawControl: Sendable, Hashable {
    /// The field's name, lowercased; `nil` when curl refused the line before showing it.
    var field: String?
    /// What was found: `LF`, `CR LF`, `CR` or `NUL`.
    var character: String
    /// The field's value before it.
    var before: [UInt8]

    /// The fault in words, e.g. `the Location header holds a raw LF after "https://…/a/"`.
    var description: String {
      guard let field else {
        return "the header line after \(Quoted.string(String(decoding: before, as: UTF8.self))) holds a raw"
          + " \(character) (curl stops reading there)"
      }
      let name = field == "location" ? "Location" : Quoted.string(field)
      let prefix = String(decoding: before, as: UTF8.self)
      return "the \(name) header holds a raw \(character)"
        + (prefix.isEmpty ? " at its start" : " after \(Quoted.string(EndpointError.short(prefix)))")
    }
  }

  /// One header field.
  struct Field: Sendable, Hashable {
    /// The name, lowercased.
    var name: String
    /// The value's bytes, surrounding whitespace trimmed.
    var value: [UInt8]
  }

  /// Parses the bytes before the blank line; anything but `HTTP/1.x NNN …` is an error that quotes the start.
  ///
  /// A line that is not a header field (no token and colon, or an obsolete fold starting with a space) continues the
  /// field before it: the server wrote a raw line break into that field's value, as it does when it copies a
  /// `redirect_uri` with a newline into `Location` (RFC 9110 §5.5, header injection). The field keeps every byte, the
  /// break included, and `rawControl` says where it was; so does a raw NUL or a CR alone inside a value.
  init(_ bytes: [UInt8], url: String) throws(EndpointError) {
    var lines = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)[...]
    let first = lines.popFirst() ?? []
    let statusLine = first.last == UInt8(ascii: "\r") ? first.dropLast() : first
    let words = statusLine.split(separator: UInt8(ascii: " "), maxSplits: 2, omittingEmptySubsequences: false)
    guard words.count >= 2, words[0].starts(with: Array("HTTP/1.".utf8)), words[1].count == 3,
      words[1].allSatisfy({ (0x30...0x39).contains($0) }), let status = Int(String(decoding: words[1], as: UTF8.self))
    else {
      throw .notHTTP(url: url, start: Self.printable(statusLine.prefix(60)))
    }
    self.status = status
    fields = []
    var brokenAfterCR = first.last == UInt8(ascii: "\r")
    for raw in lines {
      let endsInCR = raw.last == UInt8(ascii: "\r")
      let line = endsInCR ? raw.dropLast() : raw
      defer { brokenAfterCR = endsInCR }
      if line.isEmpty { continue }
      guard let colon = line.firstIndex(of: UInt8(ascii: ":")), colon > line.startIndex,
        line[..<colon].allSatisfy(Self.isTokenByte)
      else {
        guard let last = fields.indices.last else {
          throw .notHTTP(url: url, start: Self.printable(line.prefix(60)))
        }
        let lineBreak: [UInt8] = brokenAfterCR ? [0x0D, 0x0A] : [0x0A]
        if rawControl == nil {
          rawControl = RawControl(
            field: fields[last].name, character: brokenAfterCR ? "CR LF" : "LF", before: fields[last].value)
        }
        fields[last].value += lineBreak + line
        continue
      }
      let name = String(decoding: line[..<colon], as: UTF8.self).lowercased()
      let value = line[line.index(after: colon)...].drop { $0 == 0x20 || $0 == 0x09 }
      let trimmed = Array(value.reversed().drop { $0 == 0x20 || $0 == 0x09 }.reversed())
      if rawControl == nil, let control = trimmed.firstIndex(where: { $0 == 0 || $0 == 0x0D }) {
        rawControl = RawControl(
          field: name, character: trimmed[control] == 0 ? "NUL" : "CR", before: Array(trimmed[..<control]))
      }
      fields.append(Field(name: name, value: trimmed))
    }
  }

  /// Whether a byte may be part of a field name (RFC 9110 §5.6.2 `tchar`).
  static func isTokenByte(_ byte: UInt8) -> Bool {
    (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
      || "!#$%&'*+-.^_`|~".utf8.contains(byte)
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

  /// Bytes as printable text for an error message: ASCII as is, anything else as `\xNN`.
  static func printable(_ bytes: some Collection<UInt8>) -> String {
    bytes.map {
      (0x20...0x7E).contains($0) ? String(UnicodeScalar($0)) : "\\x" + String($0, radix: 16, uppercase: true)
    }
    .joined()
  }
}
