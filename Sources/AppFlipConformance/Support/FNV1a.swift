/// The 64-bit FNV-1a hash: stable across runs and platforms, for shard assignment and vector fingerprints (not security).
enum FNV1a {
  /// The hash of these bytes.
  static func hash(_ bytes: some Sequence<UInt8>) -> UInt64 {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in bytes {
      hash ^= UInt64(byte)
      hash &*= 0x0000_0100_0000_01B3
    }
    return hash
  }
}
