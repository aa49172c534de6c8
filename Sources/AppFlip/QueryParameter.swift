/// One `name=value` pair of a URL query, kept raw and decoded exactly once (RFC 3986 §3.4).
package struct QueryParameter: Sendable, Hashable {
  /// The pair as it stood in the query, still percent-encoded.
  package var raw: Substring
  /// The name, percent-decoded once; `nil` when its escapes are broken or it is not UTF-8.
  package var name: String?
  /// The value's bytes, percent-decoded once per RFC 3986 (`+` stays `+`); `nil` when an escape is broken.
  package var value: [UInt8]?
  /// The name as it stood, before the first `=`.
  package var rawName: Substring
  /// The value as it stood, after the first `=` (empty for a bare name).
  package var rawValue: Substring

  /// Creates a parameter from its raw text, decoding name and value once.
  package init(raw: Substring) {
    self.raw = raw
    let equals = raw.utf8.firstIndex(of: UInt8(ascii: "="))
    let rawName = equals.map { raw[..<$0] } ?? raw
    let rawValue = equals.map { raw[raw.utf8.index(after: $0)...] } ?? raw[raw.endIndex...]
    self.rawName = rawName
    self.rawValue = rawValue
    self.name = PercentEncoding.decode(rawName).flatMap(Bytes.utf8String)
    self.value = PercentEncoding.decode(rawValue)
  }

  /// The value as a string when it decoded to valid UTF-8.
  package var stringValue: String? { value.flatMap(Bytes.utf8String) }
}
