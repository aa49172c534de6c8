/// The counts of a run, by status.
public struct RunSummary: Sendable, Hashable, Codable {
  /// Vectors that passed.
  public var passed = 0
  /// Vectors that failed.
  public var failed = 0
  /// Vectors with SHOULD-level findings only.
  public var warnings = 0
  /// Vectors that did not apply.
  public var skipped = 0
  /// Vectors that could not be judged.
  public var errors = 0
  /// Vectors that passed although a waiver expects them to fail (stale waivers).
  public var stale = 0
  /// Endpoint refusals that prove nothing without a proven session (AF-EP-5).
  public var inconclusive = 0

  /// Counts the statuses of these results.
  public init(_ results: some Sequence<VectorResult>) {
    for result in results { count(result.status) }
  }

  /// Counts one more result with this status.
  package mutating func count(_ status: Status) {
    switch status {
    case .passed: passed += 1
    case .failed: failed += 1
    case .warning: warnings += 1
    case .skipped: skipped += 1
    case .error: errors += 1
    case .stale: stale += 1
    case .inconclusive: inconclusive += 1
    }
  }

  /// All vectors counted.
  public var total: Int { passed + failed + warnings + skipped + errors + stale + inconclusive }

  /// Whether the run passes its gate: no failures, no errors, no stale waivers, and nothing inconclusive (never
  /// counted as passed).
  public var isSuccess: Bool { failed == 0 && errors == 0 && stale == 0 && inconclusive == 0 }

  /// The JSON names of the counts; `total` is written for readers and recomputed on reading.
  enum CodingKeys: String, CodingKey {
    case passed, failed, warnings, skipped, errors, stale, inconclusive, total
  }

  /// Decodes the counts; `stale` and `inconclusive` are 0 when absent (documents written before they existed).
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    self.init([])
    passed = try container.decode(Int.self, forKey: .passed)
    failed = try container.decode(Int.self, forKey: .failed)
    warnings = try container.decode(Int.self, forKey: .warnings)
    skipped = try container.decode(Int.self, forKey: .skipped)
    errors = try container.decode(Int.self, forKey: .errors)
    stale = try container.decodeIfPresent(Int.self, forKey: .stale) ?? 0
    inconclusive = try container.decodeIfPresent(Int.self, forKey: .inconclusive) ?? 0
  }

  /// Encodes every count and the total.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(passed, forKey: .passed)
    try container.encode(failed, forKey: .failed)
    try container.encode(warnings, forKey: .warnings)
    try container.encode(skipped, forKey: .skipped)
    try container.encode(errors, forKey: .errors)
    try container.encode(stale, forKey: .stale)
    try container.encode(inconclusive, forKey: .inconclusive)
    try container.encode(total, forKey: .total)
  }
}
