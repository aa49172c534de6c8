extension PartnerConfiguration {
  /// The index in the allow-list of the URL `{redirect_uri}` stands for in vector `id` (the next ones are tried in
  /// turn when a transform cannot change it).
  ///
  /// The slot is a hash of the id, so the vectors share out the allow-list (each URL is accepted and attacked, and a
  /// handler that answers at the first configured URL fails), a vector gets the same URL whatever else is selected or
  /// sharded (unlike its shard, which takes the id's hash as it is), and `--list` shows which.
  package func redirectSlot(for id: String) -> Int {
    let count = allowList.urls.count
    return count > 1 ? Int(Self.mixed(FNV1a.hash(id.utf8)) % UInt64(count)) : 0
  }

  /// FNV-1a's low bits follow the id's bytes (its parity is theirs, as the shard's is), so they are mixed first
  /// (MurmurHash3's finalizer).
  private static func mixed(_ hash: UInt64) -> UInt64 {
    var hash = hash
    hash ^= hash >> 33
    hash &*= 0xff51_afd7_ed55_8ccd
    hash ^= hash >> 33
    hash &*= 0xc4ce_b9fe_1a85_ec53
    return hash ^ hash >> 33
  }
}
