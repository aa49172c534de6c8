/// One `name=value` pair of a URL query, kept raw; its name is decoded once, its value when it is read (RFC 3986 §3.4).
package struct QueryParameter: Sendable, Hashable {
  /// The pair as it stood in the query, still percent-encoded.
  package var raw: Substring
  /// The name, percent-decoded once; `nil` when its escapes are broken or it is not UTF-8.
  package var name: String?
  /// Where the first `=` stands in `raw`, if it has one.
  private var equals: String.Index?

  /// Creates a parameter from the UTF-8 offsets `range` of `url`, whose contiguous bytes are `bytes`.
  init(_ url: String, _ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) {
    let utf8 = url.utf8
    func index(_ offset: Int) -> String.Index { utf8.index(utf8.startIndex, offsetBy: offset) }
    let equals = Bytes.first(UInt8(ascii: "="), in: bytes, range)
    let rawName = UnsafeBufferPointer(rebasing: bytes[range.lowerBound..<(equals ?? range.upperBound)])
    // A name without escapes is its bytes, which are UTF-8: they lie between ASCII separators of a string.
    name =
      rawName.contains(UInt8(ascii: "%"))
      ? PercentEncoding.decode(rawName).flatMap(Bytes.utf8String) : String(decoding: rawName, as: UTF8.self)
    raw = url[index(range.lowerBound)..<index(range.upperBound)]
    self.equals = equals.map(index)
  }

  /// The name as it stood, before the first `=`.
  package var rawName: Substring { raw[..<(equals ?? raw.endIndex)] }
  /// The value as it stood, after the first `=` (empty for a bare name).
  package var rawValue: Substring { raw[(equals.map(raw.utf8.index(after:)) ?? raw.endIndex)...] }
  /// The value's bytes, percent-decoded once per RFC 3986 (`+` stays `+`); `nil` when an escape is broken.
  package var value: [UInt8]? { PercentEncoding.decode(rawValue) }
  /// The value's bytes form-decoded (`+` as a space, RFC 6749 Appendix B); `nil` when an escape is broken.
  package var formValue: [UInt8]? { PercentEncoding.decode(rawValue, plusAsSpace: true) }
  /// The value as a string when it decoded to valid UTF-8.
  package var stringValue: String? { value.flatMap(Bytes.utf8String) }
}
