/// The 64-bit FNV-1a hash: stable across runs and platforms, for shard assignment and vector fingerprints (not security).
enum FNV1a {
  /// The hash of no bytes (the offset basis).
  static let empty: UInt64 = 0xcbf2_9ce4_8422_2325

  /// The hash of these bytes, or of `hash`'s bytes followed by them.
  static func hash(_ bytes: some Sequence<UInt8>, after hash: UInt64 = empty) -> UInt64 {
    var hash = hash
    for byte in bytes {
      hash ^= UInt64(byte)
      hash &*= 0x0000_0100_0000_01B3
    }
    return hash
  }
}
