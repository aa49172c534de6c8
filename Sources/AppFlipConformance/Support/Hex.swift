import AppFlip

/// Hexadecimal text for bytes that are not UTF-8, in vector files (`"stateHex": "ff"`).
enum Hex {
  /// The bytes of pairs of hexadecimal digits (either case); `nil` for an odd length or another character.
  static func bytes(_ text: String) -> [UInt8]? {
    let digits = Array(text.utf8)
    guard digits.count % 2 == 0 else { return nil }
    var bytes: [UInt8] = []
    bytes.reserveCapacity(digits.count / 2)
    for index in stride(from: 0, to: digits.count, by: 2) {
      guard let high = PercentEncoding.hexValue(digits[index]), let low = PercentEncoding.hexValue(digits[index + 1])
      else { return nil }
      bytes.append(high << 4 | low)
    }
    return bytes
  }
}
