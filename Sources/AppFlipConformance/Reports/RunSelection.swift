/// The vectors a run selected, as every report names them: how many (before `--shard`), their digest
/// (`Fingerprint.digest(of:)`), and the shard of them the run ran, if any, with where each of its results stands in the
/// unsharded run, so the shards' JSON results merge into that run's reports (`ResultsMerge`).
package struct RunSelection: Sendable, Hashable, Codable {
  /// One shard of a selection.
  package struct Shard: Sendable, Hashable, Codable {
    /// This shard, from 1.
    package var index: Int
    /// How many shards there are.
    package var count: Int
    /// How many results the unsharded run has.
    package var of: Int
    /// Where each result of this shard stands among the unsharded run's results, in the shard's order.
    package var positions: [Int]
  }

  /// How many vectors were selected, before sharding.
  package var count: Int
  /// Their digest.
  package var digest: String
  /// The shard the run ran; `nil` for the whole selection.
  package var shard: Shard?
}

extension RunSelection {
  /// The selection of these vectors.
  package init(_ vectors: [LoadedVector]) {
    self.init(count: vectors.count, digest: Fingerprint.digest(of: vectors))
  }

  /// The JUnit properties that name it: `vectors.count`, `vectors.digest`, and `run.shard` (`2/3`) for a shard.
  var properties: [(String, String)] {
    [("vectors.count", String(count)), ("vectors.digest", digest)]
      + (shard.map { [("run.shard", "\($0.index)/\($0.count)")] } ?? [])
  }
}
