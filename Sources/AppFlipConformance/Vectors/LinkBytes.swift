import AppFlip

/// Byte-level helpers for rendering links: they read a string's contiguous UTF-8 storage instead of going through
/// `String.UTF8View` one index at a time, and percent-encode into one buffer instead of a string per piece.
enum LinkBytes {
  /// Whether `string`'s UTF-8 contains `byte`.
  static func contains(_ string: String, _ byte: UInt8) -> Bool {
    var string = string
    return string.withUTF8 { ByteScan.contains(byte, in: $0, 0..<$0.count) }
  }

  /// Appends `string`'s UTF-8 to `out`.
  static func append(_ string: String, to out: inout [UInt8]) {
    var string = string
    string.withUTF8 { out.append(contentsOf: $0) }
  }

  /// Appends `string` percent-encoded as `PercentEncoding.encode` does: only unreserved characters stay literal.
  static func appendEncoded(_ string: String, to out: inout [UInt8]) {
    var string = string
    string.withUTF8 { bytes in
      let start = out.count
      out.append(contentsOf: repeatElement(0, count: bytes.count * 3))
      let written = out.withUnsafeMutableBufferPointer { buffer in
        var at = start
        var index = 0
        while index < bytes.count {
          // A run of unreserved bytes (a long value is mostly one) is copied whole.
          var end = index
          while end < bytes.count && isUnreserved(bytes[end]) { end += 1 }
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
          buffer[at + 1] = hexDigit(byte >> 4)
          buffer[at + 2] = hexDigit(byte & 0x0F)
          at += 3
        }
        return at
      }
      out.removeLast(out.count - written)
    }
  }

  /// RFC 3986 unreserved: `ALPHA / DIGIT / "-" / "." / "_" / "~"`, as `PercentEncoding.isUnreserved`.
  @inline(__always)
  private static func isUnreserved(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
      UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
      UInt8(ascii: "~"):
      true
    default: false
    }
  }

  /// The upper-case hex digit of a nibble.
  @inline(__always)
  private static func hexDigit(_ nibble: UInt8) -> UInt8 {
    nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "A") + nibble - 10
  }
}
