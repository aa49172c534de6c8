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
    let hex = Array("0123456789ABCDEF".utf8)
    for byte in bytes {
      if isUnreserved(byte) {
        out.append(byte)
      } else {
        out.append(UInt8(ascii: "%"))
        out.append(hex[Int(byte >> 4)])
        out.append(hex[Int(byte & 0x0F)])
      }
    }
    return String(decoding: out, as: UTF8.self)
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
  package static func decode<Bytes: Collection>(bytes: Bytes, plusAsSpace: Bool = false) -> [UInt8]?
  where Bytes.Element == UInt8 {
    var out: [UInt8] = []
    out.reserveCapacity(bytes.count)
    var index = bytes.startIndex
    while index != bytes.endIndex {
      let byte = bytes[index]
      if byte == UInt8(ascii: "%") {
        let first = bytes.index(after: index)
        guard first != bytes.endIndex, let high = hexValue(bytes[first]) else { return nil }
        let second = bytes.index(after: first)
        guard second != bytes.endIndex, let low = hexValue(bytes[second]) else { return nil }
        out.append(high << 4 | low)
        index = bytes.index(after: second)
      } else {
        out.append(plusAsSpace && byte == UInt8(ascii: "+") ? UInt8(ascii: " ") : byte)
        index = bytes.index(after: index)
      }
    }
    return out
  }

  /// Decodes a string's escapes exactly once; `nil` when an escape is broken.
  package static func decode(_ string: some StringProtocol, plusAsSpace: Bool = false) -> [UInt8]? {
    decode(bytes: Array(string.utf8), plusAsSpace: plusAsSpace)
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
