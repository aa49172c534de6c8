import AppFlip
import AppFlipConformance

/// Which vectors catch which mutant: a vector catches a mutant when it does not pass on it (failed, warning or error).
///
/// Each vector runs against a fresh handler (its steps share one), built per configuration so that vectors with
/// their own configuration run too; a mutant that no vector catches survives.
public struct KillMatrix: Sendable {
  /// One mutant and the vectors that catch it.
  public struct Row: Sendable, Hashable {
    /// The mutant's name.
    public var name: String
    /// The mutant's bug, in one sentence.
    public var bug: String
    /// The results of the vectors that catch it, in catalog order.
    public var catches: [VectorResult]

    /// The ids of the vectors that catch it.
    public var caughtBy: [String] { catches.map(\.id) }
    /// Whether at least one vector catches it.
    public var isKilled: Bool { !catches.isEmpty }
  }

  /// One row per mutant, in the order given.
  public var rows: [Row]
  /// How many vectors were run against each mutant.
  public var vectorCount: Int

  /// The mutants no vector catches.
  public var survivors: [Row] { rows.filter { !$0.isKilled } }

  /// The row of the mutant with this name.
  public func row(named name: String) -> Row? {
    rows.first { $0.name == name }
  }

  /// Runs every vector of `catalog` against every mutant, mutants in parallel; the catalog's problems are not counted.
  public static func compute(
    _ mutants: [Mutant] = Mutant.all, catalog: VectorCatalog, configuration: PartnerConfiguration = .default
  ) async -> KillMatrix {
    let rows = await withTaskGroup(of: (Int, Row).self) { group in
      for (index, mutant) in mutants.enumerated() {
        group.addTask {
          let catches = await catches(
            of: mutant.make, name: mutant.name, catalog: catalog, configuration: configuration)
          return (index, Row(name: mutant.name, bug: mutant.bug, catches: catches))
        }
      }
      var rows: [(Int, Row)] = []
      for await row in group { rows.append(row) }
      return rows.sorted { $0.0 < $1.0 }.map(\.1)
    }
    return KillMatrix(rows: rows, vectorCount: catalog.vectors.count)
  }

  /// The results of the vectors a handler does not pass (failed, warning or error), each run on a fresh handler.
  public static func catches(
    of make: @escaping @Sendable (PartnerConfiguration) -> any AppFlipHandler, name: String, catalog: VectorCatalog,
    configuration: PartnerConfiguration = .default
  ) async -> [VectorResult] {
    // One run of the catalog: the adapter makes a fresh handler for each vector's run.
    let adapter = InProcessAdapter(name: name) { AnyAppFlipHandler(make($0)) }
    let results = await Runner(adapter: adapter, configuration: configuration).run(
      VectorFeed(catalog.vectors), control: RunControl())
    return results.filter(\.status.needsAttention)
  }
}
