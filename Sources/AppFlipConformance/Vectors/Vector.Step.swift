extension Vector {
  /// One link sent to the handler, what the scripted authorization service answers, and what must happen.
  ///
  /// Its fields live in one shared box, as `LoadedVector`'s do: each run of a vector renders its steps, and a copy of
  /// the box is one retain where a copy of the fields is one per string and array in them.
  package struct Step: Sendable, Hashable, Codable {
    private struct Fields: Sendable, Hashable {
      var incoming: Incoming
      var outcome: Outcome?
      var expect: Expectation
      var alternatives: [Alternative]
    }

    private var shared: Shared<Fields>

    /// The incoming universal link.
    package var incoming: Incoming {
      get { shared.value.incoming }
      set { shared.value.incoming = newValue }
    }

    /// What the scripted authorization service answers if the handler asks for a code; `nil` grants `unexpected-code`.
    package var outcome: Outcome? {
      get { shared.value.outcome }
      set { shared.value.outcome = newValue }
    }

    /// What a conformant handler does: the preferred answer.
    package var expect: Expectation {
      get { shared.value.expect }
      set { shared.value.expect = newValue }
    }

    /// Other answers the sources allow, each judged in full (AF-IN-8); empty for most steps.
    package var alternatives: [Alternative] {
      get { shared.value.alternatives }
      set { shared.value.alternatives = newValue }
    }

    /// Creates a step.
    package init(incoming: Incoming, outcome: Outcome? = nil, expect: Expectation, alternatives: [Alternative] = []) {
      shared = Shared(Fields(incoming: incoming, outcome: outcome, expect: expect, alternatives: alternatives))
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
      shared = Shared(
        Fields(
          incoming: try container.decode(Incoming.self, forKey: .incoming),
          outcome: try container.decodeIfPresent(Outcome.self, forKey: .outcome),
          expect: try container.decode(Expectation.self, forKey: .expect),
          alternatives: try container.decodeIfPresent([Alternative].self, forKey: .alternatives) ?? []))
    }
  }
}
