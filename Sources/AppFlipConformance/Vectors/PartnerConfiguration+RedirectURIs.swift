extension PartnerConfiguration {
  /// The allowed URLs in the order vector `id` tries them for `{redirect_uri}`: from a slot its id picks, then round
  /// the list.
  ///
  /// The slot is a hash of the id, so the vectors share out the allow-list (each URL is accepted and attacked, and a
  /// handler that answers at the first configured URL fails), a vector gets the same URL whatever else is selected or
  /// sharded (unlike its shard, which takes the id's hash as it is), and `--list` shows which.
  package func redirectURIs(for id: String) -> [String] {
    let urls = allowList.urls
    guard urls.count > 1 else { return urls }
    // FNV-1a's low bits follow the id's bytes (its parity is theirs, as the shard's is), so they are mixed first
    // (MurmurHash3's finalizer).
    var hash = FNV1a.hash(id.utf8)
    for multiplier: UInt64 in [0xff51_afd7_ed55_8ccd, 0xc4ce_b9fe_1a85_ec53] {
      hash ^= hash >> 33
      hash &*= multiplier
    }
    hash ^= hash >> 33
    let slot = Int(hash % UInt64(urls.count))
    return Array(urls[slot...] + urls[..<slot])
  }
}
