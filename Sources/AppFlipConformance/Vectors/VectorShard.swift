/// One of `count` deterministic, disjoint parts of a vector selection (`--shard index/count`).
///
/// A vector belongs to shard `fnv1a(id) mod count + 1`, so its shard depends on its id alone and stays put when other
/// vectors are added or removed. The shards of `1…count` cover every vector exactly once.
public struct VectorShard: Sendable, Hashable {
  /// This shard, from 1.
  public var index: Int
  /// How many shards there are.
  public var count: Int

  /// Creates a shard; `nil` unless `1 <= index <= count`.
  public init?(index: Int, count: Int) {
    guard count >= 1, (1...count).contains(index) else { return nil }
    self.index = index
    self.count = count
  }

  /// Parses `i/n`.
  package init?(_ text: String) {
    let parts = text.split(separator: "/", omittingEmptySubsequences: false)
    guard parts.count == 2, let index = Int(parts[0]), let count = Int(parts[1]) else { return nil }
    self.init(index: index, count: count)
  }

  /// Whether the vector with this id belongs to this shard.
  package func contains(_ id: String) -> Bool {
    let hash = FNV1a.hash(id.utf8)
    return Int(hash % UInt64(count)) + 1 == index
  }

  /// The catalog with only this shard's vectors and problems.
  public func apply(to catalog: VectorCatalog) -> VectorCatalog {
    VectorCatalog(
      vectors: catalog.vectors.filter { contains($0.vector.id) },
      problems: catalog.problems.filter { contains($0.vectorID ?? $0.file) }, definitions: catalog.definitions)
  }
}
