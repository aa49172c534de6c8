/// Byte-exact helpers: App Flip compares `client_id`, `state` and `redirect_uri` as bytes (AF-IN-5, AF-RU-1).
package enum Bytes {
  /// Whether two strings have the same UTF-8 bytes; unlike `==`, Unicode-equivalent strings differ.
  package static func equal(_ lhs: some StringProtocol, _ rhs: some StringProtocol) -> Bool {
    lhs.utf8.count == rhs.utf8.count && lhs.utf8.elementsEqual(rhs.utf8)
  }

  /// Whether two strings have the same UTF-8 bytes, comparing their contiguous storage directly.
  package static func equal(_ lhs: String, _ rhs: String) -> Bool {
    guard lhs.utf8.count == rhs.utf8.count else { return false }
    var lhs = lhs
    var rhs = rhs
    return lhs.withUTF8 { left in rhs.withUTF8 { right in left.elementsEqual(right) } }
  }

  /// The string these bytes spell when they are valid UTF-8, else `nil` (no replacement characters).
  package static func utf8String(_ bytes: [UInt8]) -> String? {
    // Validating is about 9 times as fast as decoding and comparing back (unoptimized, as `swift test` builds).
    if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) {
      return String(validating: bytes, as: UTF8.self)
    }
    let string = String(decoding: bytes, as: UTF8.self)
    return string.utf8.elementsEqual(bytes) ? string : nil
  }
}
