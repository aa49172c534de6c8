extension RunSummary {
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
