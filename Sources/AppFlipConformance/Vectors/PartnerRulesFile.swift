/// A partner's `rules.json`: the rule ids its own vectors cite, outside the bundled `AF-` namespace.
struct PartnerRulesFile: Sendable, Hashable, Decodable {
  /// The file's schema version; `1`, as for vector files.
  var schemaVersion: Int
  /// What the rules are, e.g. whose requirements.
  var description: String
  /// The rules by id, e.g. `ACME-1`.
  var rules: [String: PartnerRule]

  enum CodingKeys: String, CodingKey, CaseIterable {
    case schemaVersion, description, rules
  }

  init(from decoder: any Decoder) throws {
    let container = try decoder.strictContainer(keyedBy: CodingKeys.self)
    schemaVersion = try container.decode(Int.self, forKey: .schemaVersion)
    description = try container.decode(String.self, forKey: .description)
    rules = try container.decode([String: PartnerRule].self, forKey: .rules)
  }
}
