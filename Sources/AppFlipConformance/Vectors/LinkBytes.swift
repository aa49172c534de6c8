import AppFlip

/// Percent-encoding for rendering links, with the bytes kept literal and the case of the hex digits chosen.
enum LinkBytes {
  /// `string` percent-encoded as `PercentEncoding.encode` does: only unreserved characters (or the bytes of `keeping`)
  /// stay literal, the hex digits upper-case unless `lowerHex`.
  static func encoded(_ string: String, keeping unreserved: ByteSet = unreservedBytes, lowerHex: Bool = false) -> String
  {
    let hex = Array((lowerHex ? "0123456789abcdef" : "0123456789ABCDEF").utf8)
    var out: [UInt8] = []
    out.reserveCapacity(string.utf8.count * 3)
    for byte in string.utf8 {
      if unreserved.contains(byte) {
        out.append(byte)
      } else {
        out += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]]
      }
    }
    return String(decoding: out, as: UTF8.self)
  }

  /// RFC 3986 unreserved: `ALPHA / DIGIT / "-" / "." / "_" / "~"`, as `PercentEncoding.isUnreserved`.
  static let unreservedBytes = ByteSet(PercentEncoding.isUnreserved)
  /// No byte: every one is escaped.
  static let noBytes = ByteSet { _ in false }
}
