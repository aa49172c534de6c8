#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Byte-exact helpers: App Flip compares `client_id`, `state` and `redirect_uri` as bytes (AF-IN-5, AF-RU-1).
///
/// Bytes are found with the C library's `memchr` and compared with `memcmp`, which read many bytes at a time: links
/// and replies can carry values of 64 KB, which a loop over bytes reads one at a time.
package enum Bytes {
  /// Whether two strings have the same UTF-8 bytes; unlike `==`, Unicode-equivalent strings differ.
  package static func equal(_ lhs: some StringProtocol, _ rhs: some StringProtocol) -> Bool {
    lhs.utf8.count == rhs.utf8.count && withUTF8(lhs) { left in withUTF8(rhs) { equal(left, $0) } }
  }

  /// Whether two strings have the same UTF-8 bytes, compared in place (no generic code between them and `memcmp`).
  package static func equal(_ lhs: Substring, _ rhs: Substring) -> Bool {
    var lhs = lhs
    var rhs = rhs
    return lhs.utf8.count == rhs.utf8.count && lhs.withUTF8 { left in rhs.withUTF8 { equal(left, $0) } }
  }

  /// Whether two strings have the same UTF-8 bytes, compared in place.
  package static func equal(_ lhs: String, _ rhs: String) -> Bool {
    var lhs = lhs
    var rhs = rhs
    return lhs.utf8.count == rhs.utf8.count && lhs.withUTF8 { left in rhs.withUTF8 { equal(left, $0) } }
  }

  /// Whether two byte buffers are equal.
  package static func equal(_ lhs: UnsafeBufferPointer<UInt8>, _ rhs: UnsafeBufferPointer<UInt8>) -> Bool {
    guard lhs.count == rhs.count else { return false }
    guard let left = lhs.baseAddress, let right = rhs.baseAddress else { return true }
    return memcmp(left, right, lhs.count) == 0
  }

  /// Whether two byte arrays are equal.
  package static func equal(_ lhs: [UInt8], _ rhs: [UInt8]) -> Bool {
    lhs.withUnsafeBufferPointer { left in rhs.withUnsafeBufferPointer { right in equal(left, right) } }
  }

  /// Calls `body` with a string's UTF-8, in place when it is contiguous (as native strings and their slices are).
  package static func withUTF8<T>(_ text: some StringProtocol, _ body: (UnsafeBufferPointer<UInt8>) -> T) -> T {
    // A String or Substring is one call away from its bytes; generic code would read them a witness call at a time.
    var slice = (text as? Substring) ?? (text as? String)?[...] ?? Substring(text)
    return slice.withUTF8(body)
  }

  /// The offset of the first `byte` in `bytes[range]`, or `nil`.
  package static func first(_ byte: UInt8, in bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Int? {
    guard !range.isEmpty, let base = bytes.baseAddress else { return nil }
    guard let found = memchr(base + range.lowerBound, Int32(byte), range.count) else { return nil }
    return base.distance(to: found.assumingMemoryBound(to: UInt8.self))
  }

  /// Whether `bytes[range]` contains `byte`.
  package static func contains(_ byte: UInt8, in bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Bool {
    first(byte, in: bytes, range) != nil
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
