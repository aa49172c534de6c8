/// Percent-encoding and -decoding of URI components, byte-exact and strict (RFC 3986 §2.1, §2.3).
package enum PercentEncoding {
  /// Whether a byte is an RFC 3986 §2.3 unreserved character: `A-Z a-z 0-9 - . _ ~`.
  package static func isUnreserved(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
      UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."),
      UInt8(ascii: "_"), UInt8(ascii: "~"):
      return true
    default:
      return false
    }
  }

  /// Encodes every byte but the unreserved ones, so RFC 3986 and form decoders read the same bytes (AF-RE-6).
  package static func encode<Bytes: Sequence>(bytes: Bytes) -> String where Bytes.Element == UInt8 {
    var out: [UInt8] = []
    out.reserveCapacity(bytes.underestimatedCount * 3)
    for byte in bytes {
      if isUnreserved(byte) {
        out.append(byte)
      } else {
        escape(byte, into: &out)
      }
    }
    return String(decoding: out, as: UTF8.self)
  }

  /// Appends `%XX` for `byte`, in upper-case hex as RFC 3986 §2.1 asks of producers.
  package static func escape(_ byte: UInt8, into out: inout [UInt8]) {
    func digit(_ nibble: UInt8) -> UInt8 { nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "A") + nibble - 10 }
    out.append(UInt8(ascii: "%"))
    out.append(digit(byte >> 4))
    out.append(digit(byte & 0x0F))
  }

  /// Encodes the UTF-8 bytes of a string, leaving only unreserved characters literal.
  package static func encode(_ string: String) -> String {
    encode(bytes: string.utf8)
  }

  /// `name=value` pairs, names and values encoded, joined with `&`: a query, or a form body (RFC 6749 Appendix B).
  package static func query(_ pairs: [(String, String)]) -> String {
    pairs.map { encode($0.0) + "=" + encode($0.1) }.joined(separator: "&")
  }

  /// Decodes `%XX` escapes exactly once; `nil` when an escape is broken (RFC 3986 §2.1).
  ///
  /// With `plusAsSpace`, a literal `+` reads as a space, as
  /// `application/x-www-form-urlencoded` decoders do (RFC 6749 Appendix B).
  package static func decode(_ bytes: UnsafeBufferPointer<UInt8>, plusAsSpace: Bool = false) -> [UInt8]? {
    var out: [UInt8] = []
    out.reserveCapacity(bytes.count)
    let whole = forEachDecoded(bytes, plusAsSpace: plusAsSpace) {
      out.append($0)
      return true
    }
    return whole ? out : nil
  }

  /// Decodes a string's escapes exactly once; `nil` when an escape is broken.
  package static func decode(_ string: some StringProtocol, plusAsSpace: Bool = false) -> [UInt8]? {
    Bytes.withUTF8(string) { decode($0, plusAsSpace: plusAsSpace) }
  }

  /// Whether `bytes` decode to exactly `expected`, compared as they decode; false when an escape is broken.
  package static func decodes(
    _ bytes: UnsafeBufferPointer<UInt8>, plusAsSpace: Bool, to expected: UnsafeBufferPointer<UInt8>
  ) -> Bool {
    var matched = 0
    let whole = forEachDecoded(bytes, plusAsSpace: plusAsSpace) { byte in
      guard matched < expected.count, expected[matched] == byte else { return false }
      matched += 1
      return true
    }
    return whole && matched == expected.count
  }

  /// Hands each byte of `bytes`, decoded once (`%XX` as its byte, `+` as a space with `plusAsSpace`), to `body` until
  /// it returns false; false when it did or an escape is broken, so a value is compared or checked as it decodes.
  package static func forEachDecoded(
    _ bytes: UnsafeBufferPointer<UInt8>, plusAsSpace: Bool, _ body: (UInt8) -> Bool
  ) -> Bool {
    var index = 0
    while index < bytes.count {
      let byte = bytes[index]
      if byte == UInt8(ascii: "%") {
        guard index + 2 < bytes.count, let high = hexValue(bytes[index + 1]), let low = hexValue(bytes[index + 2]),
          body(high << 4 | low)
        else { return false }
        index += 3
      } else {
        guard body(plusAsSpace && byte == UInt8(ascii: "+") ? UInt8(ascii: " ") : byte) else { return false }
        index += 1
      }
    }
    return true
  }

  private static func hexValue(_ byte: UInt8) -> UInt8? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
    default: return nil
    }
  }
}
