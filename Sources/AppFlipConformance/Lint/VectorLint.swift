import Foundation

/// The checks every corpus of vectors passes, the bundled one and a partner's alike: each file loads strictly (the
/// JSON Schema's rules: ids, levels, rules cited, flags and placeholders, against the partner's `rules.json` and
/// `flags.json` loaded with them), and each bundled rule cited is one RULES.md defines. `CorpusLint` adds what only
/// the bundled corpus must hold; a partner's lint (`appflip-conformance lint`, `PartnerLint`) adds that no id is a
/// bundled vector's and no vector repeats the links of another (`duplicates(among:)`).
package struct VectorLint: Sendable {
  /// The vectors and loading problems.
  package var catalog: VectorCatalog
  /// The rules document bundled rule ids are checked against.
  package var rules: RulesDocument

  /// Creates a lint of a loaded catalog.
  package init(catalog: VectorCatalog, rules: RulesDocument = .bundled) {
    self.catalog = catalog
    self.rules = rules
  }

  /// Every problem, one sentence each naming the file, the vector and the field, and what to do.
  package var problems: [String] {
    var problems = catalog.problems.map(\.description)
    let known = Set(rules.ids)
    for loaded in catalog.vectors {
      for (index, rule) in loaded.vector.rules.enumerated()
      where VectorDefinitions.isBundledRuleID(rule) && !known.contains(rule) {
        problems.append(
          VectorError.invalidValue(
            file: loaded.file, vectorID: loaded.vector.id, field: "rules[\(index)]", value: rule,
            reason: "RULES.md defines no such rule; cite one of its ids (e.g. AF-RU-2), or define your own in a "
              + "\(VectorDefinitions.rulesFileName)"
          ).description)
      }
    }
    return problems
  }

  /// What a vector sends, as written: its configuration, each step's link and scripted outcome, whether the links are
  /// in flight at once, and its profile.
  private struct Input: Encodable {
    var profile: VectorFile.Profile
    var configuration: Vector.ConfigurationOverride?
    var steps: [Step]
    var interleaved: Bool

    struct Step: Encodable {
      var incoming: Vector.Incoming
      var outcome: Vector.Outcome?
    }
  }

  /// What a vector sends, as bytes (Swift's `String ==` calls an NFC and an NFD spelling equal; these do not).
  static func input(of loaded: LoadedVector) -> [UInt8] {
    let vector = loaded.vector
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    let input = Input(
      profile: loaded.profile, configuration: vector.configuration,
      steps: vector.steps.map { Input.Step(incoming: $0.incoming, outcome: $0.outcome) },
      interleaved: vector.interleaved)
    return Array((try? encoder.encode(input)) ?? Data(vector.id.utf8))
  }

  /// Each vector of this catalog that sends, as written, the same links with the same outcomes under the same
  /// configuration as a vector before it, here or in `others` (the bundled vectors): one of the two tests nothing the
  /// other does not.
  package func duplicates(among others: [LoadedVector] = []) -> [String] {
    var first: [[UInt8]: LoadedVector] = [:]
    for loaded in others {
      let input = Self.input(of: loaded)
      if first[input] == nil { first[input] = loaded }
    }
    var problems: [String] = []
    for loaded in catalog.vectors {
      let input = Self.input(of: loaded)
      guard let earlier = first[input] else {
        first[input] = loaded
        continue
      }
      let vector = loaded.vector
      problems.append(
        "\(loaded.file): vector \(Quoted.string(vector.id)), field \"\(vector.steps.count == 1 ? "incoming" : "steps")\": "
          + "sends the same links with the same outcomes as vector \(Quoted.string(earlier.vector.id)) in "
          + "\(earlier.file), so it tests nothing that one does not; merge their expectations into one vector "
          + "(alternatives for other readings), or change what this one sends.")
    }
    return problems
  }
}
