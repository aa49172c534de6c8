/// What a run does, shared by the command line and `ConformanceHarness` so the two cannot drift: which vectors, how
/// they are gated, and which reports are written.
public struct ConformanceOptions: Sendable, Hashable {
  /// Extra vector files or folders (`--vectors`), loaded like the bundled ones.
  package var vectors: [String]
  /// Whether the bundled vectors run too (`--no-bundled` clears it).
  package var bundled: Bool
  /// Which vectors run: id globs, tags, levels and flags (`--filter`, `--tag`, `--level`, `--flag`).
  package var filter: VectorFilter
  /// Only this shard of the selection (`--shard i/n`).
  package var shard: VectorShard?
  /// Whether SHOULD findings fail (`--strict`).
  package var strict: Bool
  /// Seconds one step may take before it is an error (`--timeout`).
  package var timeout: Double
  /// The app's target: vectors whose links it cannot deliver are skipped (`--platform`).
  package var platform: DeliveryPlatform?
  /// How many vectors run at once (`--jobs`); `nil` for the default.
  package var jobs: Int?
  /// Stop after this many failed or errored vectors; the rest are reported as not run (`--max-failures`).
  package var maxFailures: Int?
  /// A waiver file to apply (`--waivers`).
  package var waivers: String?
  /// Where to write a waiver file for every failing vector, or the updated `waivers` file (`--write-waivers`).
  package var writeWaivers: String?
  /// Where to write the JUnit report (`--report`); `nil` writes none.
  package var junit: String?
  /// Where to write the Markdown summary (`--markdown`); `nil` writes none.
  package var markdown: String?
  /// Where to write the versioned JSON results (`--json`); `nil` writes none.
  package var json: String?

  /// Creates options; by default every bundled vector runs and no report is written.
  public init(
    vectors: [String] = [], bundled: Bool = true, filter: VectorFilter = VectorFilter(), shard: VectorShard? = nil,
    strict: Bool = false, timeout: Double = 10, platform: DeliveryPlatform? = nil, jobs: Int? = nil,
    maxFailures: Int? = nil, waivers: String? = nil, writeWaivers: String? = nil, junit: String? = nil,
    markdown: String? = nil, json: String? = nil
  ) {
    self.vectors = vectors
    self.bundled = bundled
    self.filter = filter
    self.shard = shard
    self.strict = strict
    self.timeout = timeout
    self.platform = platform
    self.jobs = jobs
    self.maxFailures = maxFailures
    self.waivers = waivers
    self.writeWaivers = writeWaivers
    self.junit = junit
    self.markdown = markdown
    self.json = json
  }

  /// These options with `{name}` in each report path replaced by `name` (a harness's reports are named after it).
  package func named(_ name: String) -> ConformanceOptions {
    var named = self
    func fill(_ path: String?) -> String? { path?.replacingOccurrences(of: "{name}", with: name) }
    named.junit = fill(junit)
    named.markdown = fill(markdown)
    named.json = fill(json)
    named.writeWaivers = fill(writeWaivers)
    return named
  }

  /// The vectors of `loaded` this run selects: `filter`, then `shard`.
  package func select(_ loaded: VectorCatalog) -> VectorCatalog {
    let selected = filter.apply(to: loaded)
    return shard.map { $0.apply(to: selected) } ?? selected
  }

  /// Why the run cannot go on with the vectors `selected` of `loaded`, in one sentence: a `--flag` no loaded file
  /// defines, or a selection that selects no vector (`EmptySelection`); `nil` when it can.
  package func selectionProblem(loaded: VectorCatalog, selected: VectorCatalog) -> String? {
    filter.unknownFlag(definedBy: loaded.definitions)?.description
      ?? EmptySelection.check(filter: filter, shard: shard, loaded: loaded, selected: selected)?.description
  }

  /// The report paths this run writes, for telling two runs that would overwrite each other apart.
  package var reportPaths: [String] { [junit, markdown, json, writeWaivers].compactMap { $0 } }
}
