import AppFlip

/// A reply parameter's value read both ways a receiver may decode it (AF-RE-6): compared and checked byte by byte as it
/// decodes, in place, and decoded into bytes only to be shown in a finding.
extension QueryParameter {
  /// Whether the two decodings read different bytes (AF-RE-6): the value has a literal `+`, which RFC 3986 reads as
  /// `+` and form decoding as a space, and it decodes.
  var isAmbiguous: Bool {
    withRawValue { Bytes.contains(UInt8(ascii: "+"), in: $0, 0..<$0.count) && Self.decodes($0) }
  }

  /// Whether the value is empty or does not decode.
  var isEmptyOrBroken: Bool {
    withRawValue { $0.isEmpty || !Self.decodes($0) }
  }

  /// Whether either decoding reads exactly `expected`'s UTF-8; a mismatch between the two is reported on its own
  /// (AF-RE-6).
  func reads(_ expected: String) -> Bool {
    var expected = expected
    return expected.withUTF8 { reads($0) }
  }

  /// Whether either decoding reads exactly these bytes.
  func reads(_ expected: [UInt8]) -> Bool {
    expected.withUnsafeBufferPointer { reads($0) }
  }

  /// Whether either decoding reads exactly these bytes, compared as the value decodes.
  private func reads(_ expected: UnsafeBufferPointer<UInt8>) -> Bool {
    withRawValue { bytes in
      let hasPlus = Bytes.contains(UInt8(ascii: "+"), in: bytes, 0..<bytes.count)
      guard hasPlus || Bytes.contains(UInt8(ascii: "%"), in: bytes, 0..<bytes.count) else {
        return Bytes.equal(bytes, expected)
      }
      return PercentEncoding.decodes(bytes, plusAsSpace: false, to: expected)
        || (hasPlus && PercentEncoding.decodes(bytes, plusAsSpace: true, to: expected))
    }
  }

  /// Whether the RFC 3986 decoding uses only NQSCHAR.
  var isNQSChar: Bool {
    withRawValue { bytes in
      PercentEncoding.forEachDecoded(bytes, plusAsSpace: false) {
        (0x20...0x21).contains($0) || (0x23...0x5B).contains($0) || (0x5D...0x7E).contains($0)
      }
    }
  }

  /// The decoded value for a diff, or the raw text when it does not decode.
  var display: String {
    value.map(Quoted.bytes) ?? "\(Quoted.string(String(rawValue))) (broken percent-escape)"
  }

  /// Whether every escape of these bytes is whole, so both decodings read bytes.
  private static func decodes(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    !Bytes.contains(UInt8(ascii: "%"), in: bytes, 0..<bytes.count)
      || PercentEncoding.forEachDecoded(bytes, plusAsSpace: false) { _ in true }
  }

  /// Calls `body` with the value's bytes as written, in place.
  private func withRawValue<T>(_ body: (UnsafeBufferPointer<UInt8>) -> T) -> T {
    var raw = rawValue
    return raw.withUTF8(body)
  }
}
