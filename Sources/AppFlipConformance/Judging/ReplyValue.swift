import AppFlip

/// One reply parameter value, read both ways a receiver may decode it (AF-RE-6): compared and checked byte by byte as
/// it decodes, and decoded into bytes only to be shown in a finding.
struct ReplyValue {
  /// The value as written.
  var raw: Substring
  /// Whether it has a `%`: an escape to decode, or a broken one.
  var hasPercent: Bool
  /// Whether it has a literal `+`, which form decoding reads as a space.
  var hasPlus: Bool

  /// RFC 3986 decoding (`+` stays `+`), as iOS and Android URL APIs read it; `nil` when an escape is broken.
  var rfc3986: [UInt8]? { decoded(plusAsSpace: false) }

  /// Form decoding (`+` as a space), as `application/x-www-form-urlencoded` readers do (RFC 6749 Appendix B); `nil`
  /// when an escape is broken.
  var form: [UInt8]? { decoded(plusAsSpace: true) }

  /// Whether every escape is whole, so both decodings read bytes.
  var decodes: Bool {
    !hasPercent || withBytes { ReplyQuery.forEachDecoded($0, 0..<$0.count, plusAsSpace: false) { _ in true } }
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
    withBytes { bytes in
      guard hasPercent || hasPlus else { return ByteScan.equal(bytes, expected) }
      func reads(plusAsSpace: Bool) -> Bool {
        var matched = 0
        let whole = ReplyQuery.forEachDecoded(bytes, 0..<bytes.count, plusAsSpace: plusAsSpace) { byte in
          guard matched < expected.count, expected[matched] == byte else { return false }
          matched += 1
          return true
        }
        return whole && matched == expected.count
      }
      return reads(plusAsSpace: false) || (hasPlus && reads(plusAsSpace: true))
    }
  }

  /// Whether the RFC 3986 decoding uses only NQSCHAR.
  var isNQSChar: Bool {
    withBytes { bytes in
      ReplyQuery.forEachDecoded(bytes, 0..<bytes.count, plusAsSpace: false) {
        (0x20...0x21).contains($0) || (0x23...0x5B).contains($0) || (0x5D...0x7E).contains($0)
      }
    }
  }

  /// The decoded value for a diff, or the raw text when it does not decode.
  var display: String {
    rfc3986.map(Quoted.bytes) ?? "\(Quoted.string(String(raw))) (broken percent-escape)"
  }

  /// The value decoded once; `nil` when an escape is broken.
  private func decoded(plusAsSpace: Bool) -> [UInt8]? {
    withBytes { ReplyQuery.decode($0, 0..<$0.count, plusAsSpace: plusAsSpace) }
  }

  /// Calls `body` with the value's bytes as written, in place.
  private func withBytes<T>(_ body: (UnsafeBufferPointer<UInt8>) -> T) -> T {
    var raw = raw
    return raw.withUTF8(body)
  }
}
