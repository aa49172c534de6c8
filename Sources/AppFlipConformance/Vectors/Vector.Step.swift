extension Vector {
  /// One link sent to the handler, what the scripted authorization service answers, and what must happen.
  ///
  /// Its fields live in one shared box, as `LoadedVector`'s do: each run of a vector renders its steps, and a copy of
  /// the box is one retain where a copy of the fields is one per string and array in them.
  package struct Step: Sendable, Hashable, Codable {
    /// The fields, never changed in place: setting one makes a new box.
    private final class Storage: Sendable, Hashable {
      let incoming: Incoming
      let outcome: Outcome?
      let expect: Expectation
      let alternatives: [Alternative]

      init(incoming: Incoming, outcome: Outcome?, expect: Expectation, alternatives: [Alternative]) {
        self.incoming = incoming
        self.outcome = outcome
        self.expect = expect
        self.alternatives = alternatives
      }

      static func == (lhs: Storage, rhs: Storage) -> Bool {
        lhs === rhs
          || (lhs.incoming == rhs.incoming && lhs.outcome == rhs.outcome && lhs.expect == rhs.expect
            && lhs.alternatives == rhs.alternatives)
      }

      func hash(into hasher: inout Hasher) {
        hasher.combine(incoming)
        hasher.combine(outcome)
        hasher.combine(expect)
        hasher.combine(alternatives)
      }
    }

    private var storage: Storage

    /// The incoming universal link.
    package var incoming: Incoming {
      get { storage.incoming }
      set { storage = Storage(incoming: newValue, outcome: outcome, expect: expect, alternatives: alternatives) }
    }

    /// What the scripted authorization service answers if the handler asks for a code; `nil` grants `unexpected-code`.
    package var outcome: Outcome? {
      get { storage.outcome }
      set { storage = Storage(incoming: incoming, outcome: newValue, expect: expect, alternatives: alternatives) }
    }

    /// What a conformant handler does: the preferred answer.
    package var expect: Expectation {
      get { storage.expect }
      set { storage = Storage(incoming: incoming, outcome: outcome, expect: newValue, alternatives: alternatives) }
    }

    /// Other answers the sources allow, each judged in full (AF-IN-8); empty for most steps.
    package var alternatives: [Alternative] {
      get { storage.alternatives }
      set { storage = Storage(incoming: incoming, outcome: outcome, expect: expect, alternatives: newValue) }
    }

    /// Creates a step.
    package init(incoming: Incoming, outcome: Outcome? = nil, expect: Expectation, alternatives: [Alternative] = []) {
      storage = Storage(incoming: incoming, outcome: outcome, expect: expect, alternatives: alternatives)
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
      storage = Storage(
        incoming: try container.decode(Incoming.self, forKey: .incoming),
        outcome: try container.decodeIfPresent(Outcome.self, forKey: .outcome),
        expect: try container.decode(Expectation.self, forKey: .expect),
        alternatives: try container.decodeIfPresent([Alternative].self, forKey: .alternatives) ?? [])
    }
  }
}
