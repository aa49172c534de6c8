import AppFlip

/// One reply parameter value, decoded both ways a receiver may decode it (AF-RE-6).
struct ReplyValue {
  /// The value as written.
  var raw: Substring
  /// RFC 3986 decoding (`+` stays `+`), as iOS and Android URL APIs read it; `nil` when an escape is broken.
  var rfc3986: [UInt8]?
  /// Form decoding (`+` is a space), as `application/x-www-form-urlencoded` readers do (RFC 6749 Appendix B).
  var form: [UInt8]?

  init(raw: Substring, rfc3986: [UInt8]?, form: [UInt8]?) {
    self.raw = raw
    self.rfc3986 = rfc3986
    self.form = form
  }

  /// Whether the two decodings read different bytes.
  var isAmbiguous: Bool { rfc3986 != form }

  /// Whether either decoding reads exactly `expected`; a mismatch between the two is reported on its own (AF-RE-6).
  func reads(_ expected: String) -> Bool {
    reads(Array(expected.utf8))
  }

  /// Whether either decoding reads exactly these bytes.
  func reads(_ expected: [UInt8]) -> Bool {
    rfc3986.map { ByteScan.equal($0, expected) } == true || form.map { ByteScan.equal($0, expected) } == true
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
