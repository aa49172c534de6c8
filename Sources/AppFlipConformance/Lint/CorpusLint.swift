import Foundation

/// Checks that the bundled corpus is safe to extend: what every corpus passes (`VectorLint`: strict loading, rules and
/// flags defined, no duplicate links), and what only the bundled corpus must hold: every vector flagged, no partner
/// definitions, every rule with at least three vectors, ids stable against the committed manifest, and RULES.md's
/// coverage section up to date.
package struct CorpusLint: Sendable {
  /// How many vectors each rule needs at least.
  package static let minimumVectorsPerRule = 3

  /// One rule's coverage.
  package struct Coverage: Sendable, Hashable {
    /// The rule.
    package var rule: RulesDocument.Rule
    /// The ids of the vectors citing it.
    package var vectors: [String]
  }

  /// The vectors and loading problems of every linted folder.
  package var catalog: VectorCatalog
  /// The rules document.
  package var rules: RulesDocument
  /// The committed manifest.
  package var manifest: VectorManifest
  /// The text of `RULES.md`, whose coverage section must match the corpus.
  package var rulesText: String?

  /// The markers around the generated coverage section of `RULES.md`.
  package static let coverageMarkers = ("<!-- coverage:begin (appflip-lint --update) -->", "<!-- coverage:end -->")

  /// Creates a lint over a loaded corpus, rules document and manifest.
  package init(catalog: VectorCatalog, rules: RulesDocument, manifest: VectorManifest, rulesText: String? = nil) {
    self.catalog = catalog
    self.rules = rules
    self.manifest = manifest
    self.rulesText = rulesText
  }

  /// Loads the corpus of a repository checkout: `Vectors/corpus`, `Vectors/endpoint`, `Vectors/token`,
  /// `Vectors/association`, `RULES.md`, `Vectors/flags.json` and `Vectors/manifest.json` (absent before the first
  /// `--update`), each read strictly: a duplicate key, a missing or unreadable file is an error naming it.
  package static func load(root: URL) throws(VectorError) -> CorpusLint {
    var catalog = VectorCatalog()
    for folder in ["Vectors/corpus", "Vectors/endpoint", "Vectors/token", "Vectors/association"] {
      catalog.merge(VectorLoader.load(root.appendingPathComponent(folder), displayPath: folder))
    }
    func url(_ path: String) -> URL { root.appendingPathComponent(path) }
    let rulesText: String
    do {
      rulesText = String(decoding: try InputFile.read(url("RULES.md").path, as: .corpusFile), as: UTF8.self)
    } catch {
      throw .unreadable(file: url("RULES.md").path, reason: error.reason)
    }
    _ = try VectorLoader.decodeFile(FlagRegistry.self, at: url("Vectors/flags.json"), as: .corpusFile)
    var manifest = VectorManifest()
    if FileManager.default.fileExists(atPath: url("Vectors/manifest.json").path) {
      manifest = try VectorLoader.decodeFile(VectorManifest.self, at: url("Vectors/manifest.json"), as: .corpusFile)
    }
    return CorpusLint(
      catalog: catalog, rules: RulesDocument(markdown: rulesText), manifest: manifest, rulesText: rulesText)
  }

  /// Every rule with the vectors citing it, in document order.
  package var coverage: [Coverage] {
    rules.rules.map { rule in
      Coverage(rule: rule, vectors: catalog.vectors.filter { $0.vector.rules.contains(rule.id) }.map(\.vector.id))
    }
  }

  /// Every broken invariant, one sentence each naming the file or id and what to do.
  package var problems: [String] {
    // What every corpus passes (`VectorLint`), then what only the bundled one must hold.
    var problems = VectorLint(catalog: catalog, rules: rules).problems
    let definitions = catalog.definitions
    for (kind, names) in [("rule", definitions.rules.keys.sorted()), ("flag", definitions.flags.keys.sorted())] {
      for name in names {
        problems.append(
          "\(definitions.origins[kind + " " + name] ?? "Vectors"): the bundled corpus defines \(kind) \(name) in a partner's file; bundled rules are defined in RULES.md and flags in Vectors/flags.json, so move it there."
        )
      }
    }
    for loaded in catalog.vectors {
      if loaded.vector.flags.isEmpty {
        problems.append(
          "\(loaded.file): vector \"\(loaded.vector.id)\" has no flag; name the bug class it catches from Vectors/flags.json."
        )
      }
    }
    for entry in coverage where entry.vectors.count < Self.minimumVectorsPerRule {
      problems.append(
        "RULES.md: rule \(entry.rule.id) has \(entry.vectors.count) vectors; write at least \(Self.minimumVectorsPerRule)."
      )
    }
    problems += manifestProblems
    if let rulesText, rulesText != updatingCoverage(in: rulesText) {
      problems.append("RULES.md: the coverage section is out of date; run `swift run appflip-lint --update`.")
    }
    return problems
  }

  /// Ids that disappeared, changed meaning, came back, or are not recorded yet.
  package var manifestProblems: [String] {
    var problems: [String] = []
    let current = Dictionary(catalog.vectors.map { ($0.vector.id, $0) }, uniquingKeysWith: { first, _ in first })
    for (id, entry) in manifest.vectors.sorted(by: { $0.key < $1.key }) {
      switch (current[id], entry.deprecated) {
      case (nil, nil):
        problems.append(
          "Vectors/manifest.json: vector \"\(id)\" disappeared; restore it, or mark it \"deprecated\" with the reason.")
      case (let loaded?, nil) where Fingerprint.of(loaded.vector) != entry.fingerprint:
        problems.append(
          "\(loaded.file): vector \"\(id)\" changed meaning (fingerprint \(Fingerprint.of(loaded.vector)), manifest \(entry.fingerprint)); give the new meaning a new id and deprecate this one."
        )
      case (let loaded?, _?):
        problems.append(
          "\(loaded.file): vector \"\(id)\" reuses a deprecated id; ids are never reused, so choose a new one.")
      default:
        break
      }
    }
    for loaded in catalog.vectors where manifest.vectors[loaded.vector.id] == nil {
      problems.append(
        "\(loaded.file): vector \"\(loaded.vector.id)\" is not in Vectors/manifest.json; run `swift run appflip-lint --update`."
      )
    }
    return problems
  }

  /// `RULES.md` with its coverage section (between `coverageMarkers`) rewritten from the corpus, appended if missing.
  package func updatingCoverage(in text: String) -> String {
    let (begin, end) = Self.coverageMarkers
    let section = begin + "\n" + coverageTable + "\n" + end
    guard let start = text.range(of: begin), let stop = text.range(of: end, range: start.upperBound..<text.endIndex)
    else {
      return text + "\n## Coverage\nEach rule's vectors: how many cite it, and the first few.\n\n" + section + "\n"
    }
    return String(text[..<start.lowerBound]) + section + String(text[stop.upperBound...])
  }

  /// The coverage table: each rule, its level, and how many vectors cite it.
  package var coverageTable: String {
    var lines = ["| rule | level | vectors | e.g. |", "|---|---|---|---|"]
    for entry in coverage {
      let examples = entry.vectors.prefix(3).map { "`\($0)`" }.joined(separator: ", ")
      lines.append("| \(entry.rule.id) | \(entry.rule.level) | \(entry.vectors.count) | \(examples) |")
    }
    return lines.joined(separator: "\n")
  }
}
