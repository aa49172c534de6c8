/// Another answer the sources allow for a step, besides its preferred `expect` (APPFLIP-RULES AF-IN-8, AF-IN-9): as a
/// vector writes it (`Vector.Alternative`) and with its values filled in (`RenderedStep.Alternative`).
///
/// In JSON: `{"rule": "AF-IN-8", "reading": "the state's bytes echoed exactly", "expect": {…}}`, with
/// `"warns": true` when the preferred answer is a SHOULD and this one is to be reported as a warning.
/// The judge checks the observation against the preferred expectation and each alternative in full, and reports
/// the one it matches best.
package struct Alternative<Answer: Sendable & Hashable>: Sendable, Hashable {
  /// The rule that allows this answer, e.g. `AF-IN-8`.
  package var rule: String
  /// How a handler that gives this answer read the link, in a few words for reports.
  package var reading: String
  /// Whether this answer warns (the preferred one is a SHOULD); otherwise it passes as well as the preferred one.
  package var warns: Bool
  /// The answer, judged in full like the preferred one.
  package var expect: Answer

  /// Creates an alternative answer.
  package init(rule: String, reading: String, warns: Bool = false, expect: Answer) {
    self.rule = rule
    self.reading = reading
    self.warns = warns
    self.expect = expect
  }
}

extension Alternative: Codable where Answer: Codable {
  enum CodingKeys: String, CodingKey, CaseIterable {
    case rule, reading, warns, expect
  }

  /// Decodes strictly: a field the format does not define is refused.
  package init(from decoder: any Decoder) throws {
    let container = try decoder.strictContainer(keyedBy: CodingKeys.self)
    rule = try container.decode(String.self, forKey: .rule)
    reading = try container.decode(String.self, forKey: .reading)
    warns = try container.decodeIfPresent(Bool.self, forKey: .warns) ?? false
    expect = try container.decode(Answer.self, forKey: .expect)
  }

  /// Encodes in the vector-file format; `warns` only when true.
  package func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(rule, forKey: .rule)
    try container.encode(reading, forKey: .reading)
    if warns { try container.encode(true, forKey: .warns) }
    try container.encode(expect, forKey: .expect)
  }
}

extension Vector {
  /// Another answer the sources allow for a step, as the vector writes it (AF-IN-8, AF-IN-9).
  package typealias Alternative = AppFlipConformance.Alternative<Expectation>
}

extension RenderedStep {
  /// Another answer the sources allow for a rendered step, its values filled in (AF-IN-8, AF-IN-9).
  package typealias Alternative = AppFlipConformance.Alternative<RenderedExpectation>
}
