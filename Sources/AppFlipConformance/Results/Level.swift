/// A requirement level (RFC 2119): MUST failures fail a run, SHOULD failures warn, MAY is informational.
public enum Level: String, Sendable, Hashable, Codable, CaseIterable, Comparable {
  /// An absolute requirement.
  case must
  /// A recommendation; a deviation is a warning unless the run is strict.
  case should
  /// An option; a deviation is noted only.
  case may

  private var rank: Int {
    switch self {
    case .may: 0
    case .should: 1
    case .must: 2
    }
  }

  /// The level as RFC 2119 spells it, in capitals: `MUST`, `SHOULD`, `MAY`.
  package var keyword: String { rawValue.uppercased() }

  /// Orders levels by weight: `may < should < must`.
  public static func < (lhs: Level, rhs: Level) -> Bool { lhs.rank < rhs.rank }
}
