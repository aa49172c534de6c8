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
}
