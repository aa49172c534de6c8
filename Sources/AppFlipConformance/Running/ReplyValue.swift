import AppFlip

/// One reply parameter value, decoded both ways a receiver may decode it (AF-RE-6).
struct ReplyValue {
  /// The value as written.
  var raw: Substring
  /// Both decodings, for a value with a `%` or a `+`; `nil` for a plain value, which both read as written.
  private var decoded: (rfc3986: [UInt8]?, form: [UInt8]?)?

  /// A value with escapes or a `+`, and its two decodings (`nil` when an escape is broken).
  init(raw: Substring, rfc3986: [UInt8]?, form: [UInt8]?) {
    self.raw = raw
    decoded = (rfc3986, form)
  }

  /// A value without escapes and without `+`, which both decodings read as written.
  init(plain raw: Substring) {
    self.raw = raw
    decoded = nil
  }

  /// RFC 3986 decoding (`+` stays `+`), as iOS and Android URL APIs read it; `nil` when an escape is broken.
  var rfc3986: [UInt8]? {
    guard let decoded else { return Array(raw.utf8) }
    return decoded.rfc3986
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

  /// Whether either decoding reads exactly these bytes, compared in place.
  private func reads(_ expected: UnsafeBufferPointer<UInt8>) -> Bool {
    guard let decoded else {
      var raw = raw
      return raw.withUTF8 { ByteScan.equal($0, expected) }
    }
    func equal(_ bytes: [UInt8]?) -> Bool {
      bytes?.withUnsafeBufferPointer { ByteScan.equal($0, expected) } == true
    }
    return equal(decoded.rfc3986) || equal(decoded.form)
  }

  /// Whether the RFC 3986 decoding uses only NQSCHAR.
  var isNQSChar: Bool {
    guard let bytes = rfc3986 else { return false }
    return bytes.allSatisfy { (0x20...0x21).contains($0) || (0x23...0x5B).contains($0) || (0x5D...0x7E).contains($0) }
  }

  /// The decoded value for a diff, or the raw text when it does not decode.
  var display: String {
    rfc3986.map(Quoted.bytes) ?? "\(Quoted.string(String(raw))) (broken percent-escape)"
  }
}
