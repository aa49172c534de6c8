import Foundation
import Testing

@testable import AppFlipConformance

/// A scratch copy of the repository's corpus, rules and manifest, to break one invariant at a time.
struct ScratchCorpus {
  static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

  let root: URL

  init() throws {
    root = FileManager.default.temporaryDirectory.appendingPathComponent("lint-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
    for path in ["Vectors", "RULES.md"] {
      try FileManager.default.copyItem(
        at: Self.repository.appendingPathComponent(path), to: root.appendingPathComponent(path))
    }
  }

  func remove() { try? FileManager.default.removeItem(at: root) }

  func lint() throws -> CorpusLint { try CorpusLint.load(root: root) }

  /// Rewrites one vector file's JSON, byte-faithfully (`JSONSerialization` on Linux drops a literal leading U+FEFF).
  func edit(_ file: String, _ change: (inout [String: JSONValue]) -> Void) throws {
    let url = root.appendingPathComponent("Vectors/corpus/\(file)")
    guard case .object(var json) = try JSONDecoder().decode(JSONValue.self, from: Data(contentsOf: url)) else {
      throw CocoaError(.fileReadCorruptFile)
    }
    change(&json)
    try JSONEncoder().encode(JSONValue.object(json)).write(to: url)
  }

  /// Rewrites the first vector of a file.
  func editFirstVector(_ file: String, _ change: @escaping (inout [String: JSONValue]) -> Void) throws {
    try edit(file) { json in
      guard case .array(var vectors) = json["vectors"], case .object(var first) = vectors.first else { return }
      change(&first)
      vectors[0] = .object(first)
      json["vectors"] = .array(vectors)
    }
  }

  func appendToRules(_ text: String) throws {
    let url = root.appendingPathComponent("RULES.md")
    try (String(contentsOf: url, encoding: .utf8) + text).write(to: url, atomically: true, encoding: .utf8)
  }
}

@Suite("Corpus lint", .serialized)
struct CorpusLintTests {
  func problems(after breaking: (ScratchCorpus) throws -> Void) throws -> [String] {
    let scratch = try ScratchCorpus()
    defer { scratch.remove() }
    try breaking(scratch)
    return try scratch.lint().problems
  }

  @Test("The repository's corpus passes the lint, every rule with at least three vectors")
  func repositoryIsClean() throws {
    let lint = try CorpusLint.load(root: ScratchCorpus.repository)
    #expect(lint.problems == [])
    #expect(lint.coverage.count == lint.rules.rules.count)
    #expect(lint.rules.rules.count >= 20)
    #expect(lint.coverageTable.contains("| AF-RU-2 | MUST |"))
  }

  @Test("Fails a misspelled field, naming file, vector and field")
  func misspelledField() throws {
    let found = try problems { try $0.editFirstVector("state.json") { $0["levle"] = .string("must") } }
    #expect(
      found.contains {
        $0.contains("Vectors/corpus/state.json") && $0.contains("unknown field \"levle\" (did you mean \"level\"?)")
      })
    #expect(found.allSatisfy { $0.contains("\"state/plus\"") || $0.hasPrefix("RULES.md: the coverage section") })
  }

  @Test("Fails a duplicate id across files")
  func duplicateID() throws {
    let found = try problems { scratch in
      try scratch.editFirstVector("reply.json") { $0["id"] = .string("state/plus") }
    }
    #expect(found.contains { $0.contains("reuses an id already defined") })
  }

  @Test("Fails an undefined flag")
  func undefinedFlag() throws {
    let found = try problems { try $0.editFirstVector("state.json") { $0["flags"] = .array([.string("made-up")]) } }
    #expect(found.contains { $0.contains("\"made-up\"") && $0.contains("flags.json") })
  }

  @Test("Fails a vector without flags")
  func noFlag() throws {
    let found = try problems { try $0.editFirstVector("state.json") { $0["flags"] = .array([]) } }
    #expect(found.contains { $0.contains("has no flag") })
  }

  @Test("Fails a rule id that RULES.md does not define")
  func undefinedRule() throws {
    let found = try problems { try $0.editFirstVector("state.json") { $0["rules"] = .array([.string("AF-XX-1")]) } }
    #expect(found.contains { $0.contains("\"AF-XX-1\" is not allowed: RULES.md defines no such rule") })
  }

  @Test("Fails a rule with fewer than three vectors, naming it")
  func thinRule() throws {
    let found = try problems { try $0.appendToRules("\n| AF-NEW-1 | A new rule. | MUST | RFC 6749 §3.1 |\n") }
    #expect(found.contains("RULES.md: rule AF-NEW-1 has 0 vectors; write at least 3."))
  }

  @Test("Fails a coverage section in RULES.md that no longer matches the corpus, and --update's rewrite fixes it")
  func staleCoverage() throws {
    let scratch = try ScratchCorpus()
    defer { scratch.remove() }
    let url = scratch.root.appendingPathComponent("RULES.md")
    let text = try String(contentsOf: url, encoding: .utf8)
    try text.replacingOccurrences(of: "| AF-RU-2 | MUST |", with: "| AF-RU-2 | MUST | 1 |x").write(
      to: url, atomically: true, encoding: .utf8)
    let lint = try scratch.lint()
    #expect(lint.problems == ["RULES.md: the coverage section is out of date; run `swift run appflip-lint --update`."])
    let fixed = lint.updatingCoverage(in: lint.rulesText ?? "")
    #expect(fixed == text)
  }

  @Test("Fails an id that disappears without being deprecated")
  func disappeared() throws {
    let found = try problems { scratch in
      try scratch.edit("state.json") { json in
        if case .array(let vectors) = json["vectors"] { json["vectors"] = .array(Array(vectors.dropFirst())) }
      }
    }
    #expect(found.contains { $0.contains("disappeared") })
  }

  @Test("Fails an id whose meaning changes, but not a better description")
  func changedMeaning() throws {
    let found = try problems { scratch in
      try scratch.editFirstVector("state.json") { vector in
        guard case .object(var expect) = vector["expect"], case .object(var reply) = expect["reply"],
          case .object(var incoming) = vector["incoming"], case .array(let params) = incoming["params"]
        else { return }
        reply["state"] = .string("changed")
        expect["reply"] = .object(reply)
        vector["expect"] = .object(expect)
        incoming["params"] = .array(
          params.map { $0.strings.first == "state" ? .array([.string("state"), .string("changed")]) : $0 })
        vector["incoming"] = .object(incoming)
      }
    }
    #expect(found.count == 1)
    #expect(found.first?.contains("changed meaning") == true)
    let reworded = try problems { try $0.editFirstVector("state.json") { $0["description"] = .string("Reworded.") } }
    #expect(reworded == [])
  }

  @Test("Fails a deprecated id that comes back, and a new id missing from the manifest")
  func manifestRules() throws {
    let reused = try problems { scratch in
      let url = scratch.root.appendingPathComponent("Vectors/manifest.json")
      var manifest = try JSONDecoder().decode(VectorManifest.self, from: Data(contentsOf: url))
      manifest.vectors["state/plus"]?.deprecated = "withdrawn"
      try ReportFile.json(manifest).write(to: url)
    }
    #expect(reused.contains { $0.contains("reuses a deprecated id") })
    let unrecorded = try problems { try $0.editFirstVector("state.json") { $0["id"] = .string("state/brand-new") } }
    #expect(unrecorded.contains { $0.contains("\"state/brand-new\" is not in Vectors/manifest.json") })
  }

  @Test("The JSON Schema and the strict decoder define the same fields")
  func schemaMatchesDecoder() throws {
    let url = ScratchCorpus.repository.appendingPathComponent("Vectors/schema/vector-file.schema.json")
    let schema = try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as! [String: Any]
    let defs = schema["$defs"] as! [String: Any]
    func properties(_ node: Any?) -> Set<String> {
      guard let node = node as? [String: Any] else { return [] }
      var names = Set((node["properties"] as? [String: Any] ?? [:]).keys)
      for alternative in node["oneOf"] as? [Any] ?? [] { names.formUnion(properties(alternative)) }
      return names
    }
    func keys<K: CodingKey & CaseIterable>(_: K.Type) -> Set<String> { Set(K.allCases.map(\.stringValue)) }
    let expect = defs["expect"] as! [String: Any]
    let expectProperties = expect["properties"] as! [String: Any]
    let vector = defs["vector"] as! [String: Any]
    #expect(properties(schema) == ["schemaVersion", "profile", "area", "description", "vectors"])
    #expect(properties(vector) == keys(Vector.CodingKeys.self))
    #expect(properties(defs["step"]) == keys(Vector.Step.CodingKeys.self))
    #expect(properties(defs["incoming"]) == keys(Vector.Incoming.CodingKeys.self))
    #expect(properties(defs["outcome"]) == keys(Vector.Outcome.CodingKeys.self))
    #expect(properties(expect) == keys(Vector.Expectation.CodingKeys.self))
    #expect(properties(expectProperties["authorization"]) == keys(Vector.ExpectedAuthorization.CodingKeys.self))
    #expect(properties(expectProperties["reply"]) == keys(Vector.ExpectedReply.CodingKeys.self))
    #expect(
      properties((vector["properties"] as! [String: Any])["configuration"])
        == keys(Vector.ConfigurationOverride.CodingKeys.self))
  }
}
