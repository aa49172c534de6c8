#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Finds a byte with the C library's `memchr`, which reads many bytes at a time: replies and links can carry values of
/// 64 KB, which a loop over bytes reads one at a time.
enum ByteScan {
  /// The offset of the first `byte` in `bytes[range]`, or `nil`.
  static func first(_ byte: UInt8, in bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Int? {
    guard !range.isEmpty, let base = bytes.baseAddress else { return nil }
    guard let found = memchr(base + range.lowerBound, Int32(byte), range.count) else { return nil }
    return base.distance(to: found.assumingMemoryBound(to: UInt8.self))
  }

  /// Whether `bytes[range]` contains `byte`.
  static func contains(_ byte: UInt8, in bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Bool {
    first(byte, in: bytes, range) != nil
  }

  /// Whether two byte buffers are equal, compared with `memcmp`.
  static func equal(_ lhs: UnsafeBufferPointer<UInt8>, _ rhs: UnsafeBufferPointer<UInt8>) -> Bool {
    guard lhs.count == rhs.count else { return false }
    guard let left = lhs.baseAddress, let right = rhs.baseAddress else { return true }
    return memcmp(left, right, lhs.count) == 0
  }

  /// Whether two strings have the same UTF-8 bytes (`String`'s `==` equates canonically equivalent text).
  static func equal(_ lhs: String, _ rhs: String) -> Bool {
    guard lhs.utf8.count == rhs.utf8.count else { return false }
    var lhs = lhs
    var rhs = rhs
    return lhs.withUTF8 { left in rhs.withUTF8 { right in equal(left, right) } }
  }

  /// Whether two byte arrays are equal.
  static func equal(_ lhs: [UInt8], _ rhs: [UInt8]) -> Bool {
    lhs.withUnsafeBufferPointer { left in rhs.withUnsafeBufferPointer { right in equal(left, right) } }
  }
}
