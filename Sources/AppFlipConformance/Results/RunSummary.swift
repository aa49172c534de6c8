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
}
