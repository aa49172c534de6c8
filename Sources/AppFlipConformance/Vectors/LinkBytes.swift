import AppFlip

/// Byte-level helpers for rendering links: they read a string's contiguous UTF-8 storage instead of going through
/// `String.UTF8View` one index at a time, and percent-encode into one buffer instead of a string per piece.
enum LinkBytes {
  /// Whether `string`'s UTF-8 contains `byte`.
  static func contains(_ string: String, _ byte: UInt8) -> Bool {
    var string = string
    return string.withUTF8 { Bytes.contains(byte, in: $0, 0..<$0.count) }
  }

  /// Appends `string`'s UTF-8 to `out`.
  static func append(_ string: String, to out: inout [UInt8]) {
    var string = string
    string.withUTF8 { out.append(contentsOf: $0) }
  }

  /// Appends `string` percent-encoded as `PercentEncoding.encode` does: only unreserved characters (or the bytes of
  /// `keeping`) stay literal, the hex digits upper-case unless `lowerHex`.
  static func appendEncoded(
    _ string: String, to out: inout [UInt8], keeping unreserved: ByteSet = unreservedBytes, lowerHex: Bool = false
  ) {
    var string = string
    string.withUTF8 { bytes in
      guard !bytes.isEmpty else { return }
      // Encoded on the stack, then copied in once: at most three bytes per byte.
      withUnsafeTemporaryAllocation(of: UInt8.self, capacity: bytes.count * 3) { buffer in
        var at = 0
        var index = 0
        while index < bytes.count {
          // A run of unreserved bytes (a long value is mostly one) is copied whole.
          var end = index
          while end < bytes.count && unreserved.contains(bytes[end]) { end += 1 }
          if end > index {
            _ = UnsafeMutableBufferPointer(rebasing: buffer[at..<(at + end - index)])
              .initialize(fromContentsOf: UnsafeBufferPointer(rebasing: bytes[index..<end]))
            at += end - index
            index = end
            continue
          }
          let byte = bytes[index]
          index += 1
          buffer[at] = UInt8(ascii: "%")
          buffer[at + 1] = hexDigit(byte >> 4, lower: lowerHex)
          buffer[at + 2] = hexDigit(byte & 0x0F, lower: lowerHex)
          at += 3
        }
        out.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[..<at]))
      }
    }
  }

  /// `string` percent-encoded as `appendEncoded` writes it.
  static func encoded(_ string: String, keeping unreserved: ByteSet = unreservedBytes, lowerHex: Bool = false) -> String
  {
    var out: [UInt8] = []
    appendEncoded(string, to: &out, keeping: unreserved, lowerHex: lowerHex)
    return String(decoding: out, as: UTF8.self)
  }

  /// RFC 3986 unreserved: `ALPHA / DIGIT / "-" / "." / "_" / "~"`, as `PercentEncoding.isUnreserved`.
  static let unreservedBytes = ByteSet(PercentEncoding.isUnreserved)
  /// No byte: every one is escaped.
  static let noBytes = ByteSet { _ in false }

  /// The hex digit of a nibble, upper- or lower-case.
  @inline(__always)
  private static func hexDigit(_ nibble: UInt8, lower: Bool) -> UInt8 {
    nibble < 10 ? UInt8(ascii: "0") + nibble : (lower ? UInt8(ascii: "a") : UInt8(ascii: "A")) + nibble - 10
  }
}
