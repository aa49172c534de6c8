extension Vector {
  /// One link sent to the handler, what the scripted authorization service answers, and what must happen.
  package struct Step: Sendable, Hashable, Codable {
    /// The incoming universal link.
    package var incoming: Incoming
    /// What the scripted authorization service answers if the handler asks for a code; `nil` grants `unexpected-code`.
    package var outcome: Outcome?
    /// What a conformant handler does: the preferred answer.
    package var expect: Expectation
    /// Other answers the sources allow, each judged in full (AF-IN-8); empty for most steps.
    package var alternatives: [Alternative]

    /// Creates a step.
    package init(incoming: Incoming, outcome: Outcome? = nil, expect: Expectation, alternatives: [Alternative] = []) {
      self.incoming = incoming
      self.outcome = outcome
      self.expect = expect
      self.alternatives = alternatives
    }

    enum CodingKeys: String, CodingKey, CaseIterable {
      case incoming, outcome, expect, alternatives
    }

    /// Encodes in the vector-file format; `alternatives` only when there are some.
    package func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(incoming, forKey: .incoming)
      try container.encodeIfPresent(outcome, forKey: .outcome)
      try container.encode(expect, forKey: .expect)
      if !alternatives.isEmpty { try container.encode(alternatives, forKey: .alternatives) }
    }

    /// Decodes strictly: a field the format does not define is refused.
    package init(from decoder: any Decoder) throws {
      try self.init(from: decoder, single: false)
    }

    /// Decodes a step; a single step shares its object with the vector's own fields, which are checked there.
    init(from decoder: any Decoder, single: Bool) throws {
      let container =
        single ? try decoder.container(keyedBy: CodingKeys.self) : try decoder.strictContainer(keyedBy: CodingKeys.self)
      incoming = try container.decode(Incoming.self, forKey: .incoming)
      outcome = try container.decodeIfPresent(Outcome.self, forKey: .outcome)
      expect = try container.decode(Expectation.self, forKey: .expect)
      alternatives = try container.decodeIfPresent([Alternative].self, forKey: .alternatives) ?? []
    }
  }
}
