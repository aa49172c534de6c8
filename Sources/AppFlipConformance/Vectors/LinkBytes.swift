import AppFlip

/// Byte-level helpers for rendering links: they read a string's contiguous UTF-8 storage instead of going through
/// `String.UTF8View` one index at a time, and percent-encode into one buffer instead of a string per piece.
enum LinkBytes {
  /// Whether `string`'s UTF-8 contains `byte`.
  static func contains(_ string: String, _ byte: UInt8) -> Bool {
    var string = string
    return string.withUTF8 { $0.contains(byte) }
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
      for byte in bytes {
        if PercentEncoding.isUnreserved(byte) {
          out.append(byte)
        } else {
          out.append(UInt8(ascii: "%"))
          out.append(hexDigits[Int(byte >> 4)])
          out.append(hexDigits[Int(byte & 0x0F)])
        }
      }
    }
  }

  private static let hexDigits: [UInt8] = Array("0123456789ABCDEF".utf8)
}
