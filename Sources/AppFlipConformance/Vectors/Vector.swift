import AppFlip

/// One declarative test vector: an incoming link (or a sequence of them), the scripted outcome, and what a conformant handler does.
package struct Vector: Sendable, Hashable, Codable {
  /// A stable id, unique across all loaded files, e.g. `redirect-uri/userinfo-before-host`.
  package var id: String
  /// One sentence on what the vector checks.
  package var description: String
  /// Where the rule comes from: App Flip doc sections and RFC sections.
  package var spec: [String]
  /// The ids of the rules in RULES.md this vector checks, e.g. `AF-RU-2`.
  package var rules: [String]
  /// The vector's requirement level; no finding counts above it.
  package var level: Level
  /// Free-form tags for filtering, e.g. `redirect-uri`.
  package var tags: [String] = []
  /// Bug classes from `Vectors/flags.json` that this vector catches, e.g. `open-redirect`.
  package var flags: [String] = []
  /// The vector's own partner configuration, if it needs one; see `ConfigurationOverride`.
  package var configuration: ConfigurationOverride?
  /// The links sent to one handler instance, in order; most vectors have one.
  package var steps: [Step]
  /// Whether the steps' links are all in flight at once: each code request waits until every step has asked (AF-RE-10).
  package var interleaved = false
  /// A token vector's requests to the token endpoint, in order, after its step got a code (AF-TK); empty otherwise.
  package var exchanges: [Exchange] = []

}

extension Vector {
  enum CodingKeys: String, CodingKey, CaseIterable {
    case id, description, spec, rules, level, tags, flags, configuration, steps, interleaved, incoming, outcome, expect
    case alternatives, exchanges
  }

  /// Decodes strictly: a field the format does not define is refused.
  package init(from decoder: any Decoder) throws {
    let container = try decoder.strictContainer(keyedBy: CodingKeys.self)
    id = try container.decode(String.self, forKey: .id)
    description = try container.decode(String.self, forKey: .description)
    spec = try container.decode([String].self, forKey: .spec)
    rules = try container.decode([String].self, forKey: .rules)
    level = try container.decode(Level.self, forKey: .level)
    tags = try container.decodeIfPresent([String].self, forKey: .tags) ?? []
    flags = try container.decodeIfPresent([String].self, forKey: .flags) ?? []
    configuration = try container.decodeIfPresent(ConfigurationOverride.self, forKey: .configuration)
    if container.contains(.steps) {
      for key in [CodingKeys.incoming, .outcome, .expect, .alternatives] where container.contains(key) {
        throw DecodingError.dataCorruptedError(
          forKey: key, in: container, debugDescription: "give either \"steps\" or a single step's fields, not both")
      }
      steps = try container.decode([Step].self, forKey: .steps)
    } else {
      steps = [try Step(from: decoder, single: true)]
    }
    interleaved = try container.decodeIfPresent(Bool.self, forKey: .interleaved) ?? false
    exchanges = try container.decodeIfPresent([Exchange].self, forKey: .exchanges) ?? []
  }

  /// Encodes in the vector-file format.
  package func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(id, forKey: .id)
    try container.encode(description, forKey: .description)
    try container.encode(spec, forKey: .spec)
    try container.encode(rules, forKey: .rules)
    try container.encode(level, forKey: .level)
    try container.encode(tags, forKey: .tags)
    try container.encode(flags, forKey: .flags)
    try container.encodeIfPresent(configuration, forKey: .configuration)
    if steps.count == 1 {
      try container.encode(steps[0].incoming, forKey: .incoming)
      try container.encodeIfPresent(steps[0].outcome, forKey: .outcome)
      try container.encode(steps[0].expect, forKey: .expect)
      if !steps[0].alternatives.isEmpty { try container.encode(steps[0].alternatives, forKey: .alternatives) }
    } else {
      try container.encode(steps, forKey: .steps)
    }
    if interleaved { try container.encode(true, forKey: .interleaved) }
    if !exchanges.isEmpty { try container.encode(exchanges, forKey: .exchanges) }
  }
}
