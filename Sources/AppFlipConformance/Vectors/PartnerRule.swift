/// A rule a partner defines for its own vectors, in a `rules.json` next to them, under an id outside the bundled
/// `AF-` namespace (e.g. `ACME-1`).
package struct PartnerRule: Sendable, Hashable, Codable {
  /// How much a failure matters, as RULES.md's levels: MUST fails a run, SHOULD warns, MAY informs.
  package var level: Level
  /// What the rule requires, in one sentence.
  package var description: String
  /// Where the rule comes from (a standard, a ticket, a document section); `nil` when not given.
  package var sources: [String]?

  /// A partner rule as a vector cites it: the id, and the level the vector's findings count at (RULES.md, "Levels").
  package struct Citation: Sendable, Hashable {
    /// The rule id, e.g. `ACME-1`.
    package var id: String
    /// The rule's level.
    package var level: Level
  }

}

extension PartnerRule {
  enum CodingKeys: String, CodingKey, CaseIterable {
    case level, description, sources
  }

  /// Decodes a rule strictly: a misspelled field is refused, never ignored.
  package init(from decoder: any Decoder) throws {
    let container = try decoder.strictContainer(keyedBy: CodingKeys.self)
    level = try container.decode(Level.self, forKey: .level)
    description = try container.decode(String.self, forKey: .description)
    sources = try container.decodeIfPresent([String].self, forKey: .sources)
  }
}
