import AppFlip

/// A reply parameter's value, read both ways a receiver may decode it (AF-RE-6), as the judge compares and shows it.
extension QueryParameter {
  /// Form decoding (`+` as a space), as `application/x-www-form-urlencoded` readers do (RFC 6749 Appendix B); `nil`
  /// when an escape is broken.
  var form: [UInt8]? { PercentEncoding.decode(rawValue, plusAsSpace: true) }

  /// Whether the two decodings read different bytes (AF-RE-6): the value has a literal `+` and decodes.
  var isAmbiguous: Bool { value != nil && rawValue.utf8.contains(UInt8(ascii: "+")) }

  /// Whether the value is empty or does not decode.
  var isEmptyOrBroken: Bool { rawValue.isEmpty || value == nil }

  /// Whether either decoding reads exactly `expected`'s UTF-8; a mismatch between the two is reported on its own
  /// (AF-RE-6).
  func reads(_ expected: String) -> Bool {
    reads(Array(expected.utf8))
  }

  /// Whether either decoding reads exactly these bytes.
  func reads(_ expected: [UInt8]) -> Bool {
    value == expected || (rawValue.utf8.contains(UInt8(ascii: "+")) && form == expected)
  }

  /// Whether the RFC 3986 decoding uses only NQSCHAR.
  var isNQSChar: Bool {
    value?.allSatisfy { (0x20...0x21).contains($0) || (0x23...0x5B).contains($0) || (0x5D...0x7E).contains($0) }
      ?? false
  }

  /// The decoded value for a diff, or the raw text when it does not decode.
  var display: String {
    value.map(Quoted.bytes) ?? "\(Quoted.string(String(rawValue))) (broken percent-escape)"
  }
}
