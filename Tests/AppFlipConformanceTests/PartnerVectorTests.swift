import Foundation
import Testing

@testable import AppFlipConformance

/// A partner's vector folder in a temporary directory: vector files, and its own `rules.json` and `flags.json`.
struct PartnerFolder {
  let root: URL

  init() throws {
    root = FileManager.default.temporaryDirectory.appendingPathComponent("partner-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
  }

  func remove() { try? FileManager.default.removeItem(at: root) }

  @discardableResult
  func write(_ name: String, _ text: String) throws -> URL {
    let url = root.appendingPathComponent(name)
    try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    try Data(text.utf8).write(to: url)
    return url
  }

  @discardableResult
  func write(_ name: String, _ data: Data) throws -> URL {
    try write(name, String(decoding: data, as: UTF8.self))
  }

  /// The folder loaded as `--vectors acme` would load it.
  func load() -> VectorCatalog { VectorLoader.load(root, displayPath: "acme") }

  static let rules = """
    {"schemaVersion": 1, "description": "Acme's own App Flip requirements.",
     "rules": {"ACME-1": {"level": "must", "description": "The reply never carries Acme's session id.",
                          "sources": ["Acme security standard §4"]},
               "ACME-RU-2": {"level": "should", "description": "Acme's sandbox app answers at the sandbox URL."}}}
    """

  static let flags = """
    {"schemaVersion": 1, "description": "Acme's bug classes.",
     "flags": {"acme-session-leak": {"description": "The reply leaks Acme's session id.",
                                     "effect": "Google's app sees a credential it must never hold."}}}
    """

  /// A valid vector citing `rules` and carrying `flags`.
  static func vector(id: String = "acme/ok", rules: [String] = ["ACME-1"], flags: [String] = ["acme-session-leak"])
    -> String
  {
    let quoted = { (names: [String]) in names.map { "\"\($0)\"" }.joined(separator: ", ") }
    return Fixtures.accepted(id: id).replacingOccurrences(
      of: "\"rules\": [\"AF-RE-2\"]", with: "\"rules\": [\(quoted(rules))], \"flags\": [\(quoted(flags))]")
  }
}

@Suite("Partner vectors: own rule ids and flags")
struct PartnerVectorTests {
  func loaded(_ files: [(String, String)]) throws -> VectorCatalog {
    let folder = try PartnerFolder()
    defer { folder.remove() }
    for (name, text) in files { try folder.write(name, text) }
    return folder.load()
  }

  @Test("A partner's vectors cite its own rule ids and flags, defined in rules.json and flags.json next to them")
  func ownNamespace() throws {
    let catalog = try loaded([
      ("rules.json", PartnerFolder.rules), ("flags.json", PartnerFolder.flags),
      ("acme.json", String(decoding: Fixtures.file([PartnerFolder.vector()], area: "acme"), as: UTF8.self)),
    ])
    #expect(catalog.problems.isEmpty, "\(catalog.problems.map(\.description))")
    #expect(catalog.vectors.map(\.vector.id) == ["acme/ok"])
    #expect(catalog.vectors.first?.vector.rules == ["ACME-1"])
    #expect(catalog.definitions.rules["ACME-1"]?.level == .must)
    #expect(catalog.definitions.rules["ACME-RU-2"]?.sources == nil)
    #expect(catalog.definitions.flags["acme-session-leak"]?.links == [])
    #expect(catalog.definitions.registry.flags["acme-session-leak"] != nil)
    #expect(catalog.definitions.registry.flags["open-redirect"] != nil)
    // Selecting vectors keeps the definitions they were loaded with.
    let selected = VectorFilter(flags: ["acme-session-leak"]).apply(to: catalog)
    #expect(selected.vectors.count == 1 && selected.definitions == catalog.definitions)
    #expect(VectorShard(index: 1, count: 1)?.apply(to: catalog).definitions == catalog.definitions)
  }

  @Test("Bundled rule ids and flags stay usable beside a partner's own")
  func mixed() throws {
    let vector = PartnerFolder.vector(rules: ["AF-RE-2", "ACME-1"], flags: ["open-redirect", "acme-session-leak"])
    let catalog = try loaded([
      ("rules.json", PartnerFolder.rules), ("flags.json", PartnerFolder.flags),
      ("acme.json", String(decoding: Fixtures.file([vector]), as: UTF8.self)),
    ])
    #expect(catalog.problems.isEmpty, "\(catalog.problems.map(\.description))")
    #expect(catalog.vectors.count == 1)
  }

  @Test(
    "A partner rule id or flag that no file defines is refused, naming the file, vector, field and where to define it")
  func undefined() throws {
    let catalog = try loaded([
      ("acme.json", String(decoding: Fixtures.file([PartnerFolder.vector()]), as: UTF8.self))
    ])
    #expect(catalog.vectors.isEmpty)
    let messages = catalog.problems.map(\.description)
    #expect(messages.count == 2, "\(messages)")
    #expect(
      messages.contains {
        $0.hasPrefix("acme/acme.json: vector \"acme/ok\", field \"vectors[0].rules[0]\": \"ACME-1\" is not allowed")
          && $0.contains("define it in a rules.json next to your vectors")
      }, "\(messages)")
    #expect(
      messages.contains {
        $0.hasPrefix(
          "acme/acme.json: vector \"acme/ok\", field \"vectors[0].flags[0]\": \"acme-session-leak\" is not allowed")
          && $0.contains("define your own in a flags.json next to your vectors")
      }, "\(messages)")
  }

  @Test("A misspelled partner rule id or flag gets a did-you-mean naming the defined one")
  func didYouMean() throws {
    let vector = PartnerFolder.vector(rules: ["ACME-2"], flags: ["acme-sesion-leak"])
    let catalog = try loaded([
      ("rules.json", PartnerFolder.rules), ("flags.json", PartnerFolder.flags),
      ("acme.json", String(decoding: Fixtures.file([vector]), as: UTF8.self)),
    ])
    let messages = catalog.problems.map(\.description).joined(separator: "\n")
    #expect(
      messages.contains(
        "\"ACME-2\" is not allowed: no rules.json loaded with this vector defines it (did you mean \"ACME-1\"?)"))
    #expect(messages.contains("(did you mean \"acme-session-leak\"?)"))
  }

  @Test("A vector file given on its own brings the rules.json and flags.json next to it")
  func fileWithSiblings() throws {
    let folder = try PartnerFolder()
    defer { folder.remove() }
    try folder.write("rules.json", PartnerFolder.rules)
    try folder.write("flags.json", PartnerFolder.flags)
    let file = try folder.write("acme.json", Fixtures.file([PartnerFolder.vector()]))
    let catalog = VectorLoader.load(file, displayPath: "acme/acme.json")
    #expect(catalog.problems.isEmpty, "\(catalog.problems.map(\.description))")
    #expect(catalog.vectors.count == 1)
  }

  @Test("An alternative's rule may be a partner's own")
  func alternativeRule() throws {
    let vector = PartnerFolder.vector().replacingOccurrences(
      of: "\"outcome\":",
      with: """
        "alternatives": [{"rule": "ACME-RU-2", "reading": "r", "warns": true,
          "expect": {"verdict": "rejected", "reply": {"base": "\(Fixtures.redirect)", "error": "invalid_request", "state": "s1"}}}],
        "outcome":
        """)
    let good = try loaded([
      ("rules.json", PartnerFolder.rules), ("flags.json", PartnerFolder.flags),
      ("acme.json", String(decoding: Fixtures.file([vector]), as: UTF8.self)),
    ])
    #expect(good.problems.isEmpty, "\(good.problems.map(\.description))")
    let bad = try loaded([
      ("flags.json", PartnerFolder.flags), ("acme.json", String(decoding: Fixtures.file([vector]), as: UTF8.self)),
    ])
    #expect(bad.problems.map(\.description).contains { $0.contains("alternatives[0].rule\": \"ACME-RU-2\"") })
  }

  @Test(
    "A partner file may not define a bundled rule id or flag, nor a name spelled outside its namespace",
    arguments: [
      (
        "rules.json",
        #"{"schemaVersion": 1, "description": "d", "rules": {"AF-RU-9": {"level": "must", "description": "d"}}}"#,
        #"acme/rules.json: field "rules.AF-RU-9": "AF-RU-9" is not allowed: AF- rule ids are the bundled rules, defined by RULES.md only"#
      ),
      (
        "rules.json",
        #"{"schemaVersion": 1, "description": "d", "rules": {"acme-1": {"level": "must", "description": "d"}}}"#,
        #"acme/rules.json: field "rules.acme-1": "acme-1" is not allowed: a rule id of your own is upper-case letters and digits"#
      ),
      (
        "flags.json",
        #"{"schemaVersion": 1, "description": "d", "flags": {"open-redirect": {"description": "d", "effect": "e"}}}"#,
        #"acme/flags.json: field "flags.open-redirect": "open-redirect" is not allowed: it is a bundled flag (Vectors/flags.json)"#
      ),
      (
        "flags.json",
        #"{"schemaVersion": 1, "description": "d", "flags": {"Acme Leak": {"description": "d", "effect": "e"}}}"#,
        #"acme/flags.json: field "flags.Acme Leak": "Acme Leak" is not allowed: a flag name is lower-case letters and digits"#
      ),
      (
        "flags.json",
        #"{"schemaVersion": 1, "description": "d", "flags": {"acme-leak": {"description": "d", "effect": "e", "rules": ["ACME-1"]}}}"#,
        #"acme/flags.json: field "flags.acme-leak.rules[0]": "ACME-1" is not allowed: a flag's rules are the rules of the findings"#
      ),
      (
        "rules.json",
        #"{"schemaVersion": 1, "description": "d", "rules": {"ACME-1": {"levle": "must", "description": "d"}}}"#,
        #"acme/rules.json: field "rules.ACME-1.levle": unknown field "levle" (did you mean "level"?)"#
      ),
      (
        "rules.json",
        #"{"schemaVersion": 1, "description": "d", "rules": {"ACME-1": {"level": "MUSTT", "description": "d"}}}"#,
        #"acme/rules.json: field "rules.ACME-1.level": level must be one of must, should, may; got "MUSTT"."#
      ),
      (
        "flags.json", #"{"schemaVersion": 2, "description": "d", "flags": {}}"#,
        "acme/flags.json: schemaVersion 2 is not supported"
      ),
    ])
  func refusedDefinitions(file: String, text: String, message: String) throws {
    let catalog = try loaded([
      (file, text), ("acme.json", String(decoding: Fixtures.file([Fixtures.accepted()]), as: UTF8.self)),
    ])
    let messages = catalog.problems.map(\.description)
    #expect(messages.contains { $0.hasPrefix(message) }, "\(messages)")
    #expect(messages.allSatisfy { $0.hasSuffix(".") })
    // The bundled-namespace vector beside the bad definitions still loads.
    #expect(catalog.vectors.map(\.vector.id) == ["t/ok"])
  }

  @Test("A rule defined in two files is refused in the second, naming the first")
  func definedTwice() throws {
    let catalog = try loaded([
      ("a/rules.json", PartnerFolder.rules), ("b/rules.json", PartnerFolder.rules),
      ("acme.json", String(decoding: Fixtures.file([PartnerFolder.vector(flags: [])]), as: UTF8.self)),
    ])
    let messages = catalog.problems.map(\.description)
    #expect(
      messages.contains {
        $0.hasPrefix(
          #"acme/b/rules.json: field "rules.ACME-1": "ACME-1" is not allowed: acme/a/rules.json defines this rule already"#
        )
      }, "\(messages)")
    #expect(catalog.vectors.count == 1)
  }

  @Test("The bundled corpus defines no partner rules or flags, and its lint says so when a file tries")
  func bundledHasNone() throws {
    #expect(VectorLoader.loadBundled(.app).definitions.isEmpty)
    #expect(VectorLoader.loadBundled(.endpoint).definitions.isEmpty)
    let scratch = try ScratchCorpus()
    defer { scratch.remove() }
    try Data(PartnerFolder.rules.utf8).write(to: scratch.root.appendingPathComponent("Vectors/corpus/rules.json"))
    let problems = try scratch.lint().problems
    #expect(
      problems.contains {
        $0.hasPrefix("Vectors/corpus/rules.json: the bundled corpus defines rule ACME-1")
      }, "\(problems)")
  }

  @Test(
    "--validate reports an id a bundled vector has, with or without --no-bundled, naming the bundled file",
    arguments: [["--no-bundled"], []])
  func collisionWithBundled(_ bundled: [String]) async throws {
    let folder = try PartnerFolder()
    defer { folder.remove() }
    // An app vector taking a bundled app id, and one taking a bundled endpoint id.
    try folder.write(
      "acme.json",
      Fixtures.file([
        Fixtures.accepted(id: "redirect-uri/userinfo/before-host"),
        Fixtures.accepted(id: "endpoint/accepted/prod-chromecast"),
        Fixtures.accepted(id: "acme/fine"),
      ]))
    let captured = CapturedOutput()
    let code = await ConformanceCommand.run(
      bundled + ["--vectors", folder.root.path, "--validate"], output: captured.output)
    #expect(code == .usage)
    let path = folder.root.path + "/acme.json"
    #expect(
      captured.err.contains(
        "error: \(path): vector \"redirect-uri/userinfo/before-host\", field \"id\": reuses an id already defined in Vectors/corpus/redirect-uri.json; give it a new id."
      ), "\(captured.err)")
    #expect(
      captured.err.contains(
        "error: \(path): vector \"endpoint/accepted/prod-chromecast\", field \"id\": reuses an id already defined in Vectors/endpoint/accepted.json"
      ), "\(captured.err)")
    #expect(captured.err.components(separatedBy: "reuses an id").count == 3, "each collision is reported once")
    #expect(captured.out.hasSuffix(" problems") && !captured.out.hasSuffix(" 0 problems"), "\(captured.out)")
  }

  @Test("--validate --no-bundled passes a partner folder with its own rules and flags, and the bundled corpus itself")
  func validateOwnNamespace() async throws {
    let folder = try PartnerFolder()
    defer { folder.remove() }
    try folder.write("rules.json", PartnerFolder.rules)
    try folder.write("flags.json", PartnerFolder.flags)
    try folder.write("acme.json", Fixtures.file([PartnerFolder.vector()]))
    let captured = CapturedOutput()
    let code = await ConformanceCommand.run(
      ["--no-bundled", "--vectors", folder.root.path, "--validate"], output: captured.output)
    #expect(code == .success, "\(captured.err)")
    #expect(captured.out == "1 vector valid, 0 problems")
    // The repository's own corpus folder holds the bundled vectors themselves: no collision with itself.
    let corpus = ScratchCorpus.repository.appendingPathComponent("Vectors/corpus").path
    let own = CapturedOutput()
    let ownCode = await ConformanceCommand.run(["--no-bundled", "--vectors", corpus, "--validate"], output: own.output)
    #expect(ownCode == .success, "\(own.err)")
    #expect(own.out.hasSuffix(" vectors valid, 0 problems"), "\(own.out)")
  }

  @Test("The rules.json and flags.json JSON Schemas define the fields the strict decoders read")
  func schemasMatchDecoders() throws {
    func schema(_ name: String) throws -> [String: Any] {
      let url = ScratchCorpus.repository.appendingPathComponent("Vectors/schema/\(name)")
      return try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
    }
    func properties(_ node: Any?) -> Set<String> {
      Set(((node as? [String: Any])?["properties"] as? [String: Any] ?? [:]).keys)
    }
    func keys<K: CodingKey & CaseIterable>(_: K.Type) -> Set<String> { Set(K.allCases.map(\.stringValue)) }
    let rules = try schema("rules-file.schema.json")
    #expect(properties(rules) == keys(PartnerRulesFile.CodingKeys.self))
    #expect(properties((rules["$defs"] as? [String: Any])?["rule"]) == keys(PartnerRule.CodingKeys.self))
    let flags = try schema("flags-file.schema.json")
    #expect(properties(flags) == keys(FlagRegistry.CodingKeys.self))
    #expect(properties((flags["$defs"] as? [String: Any])?["flag"]) == keys(FlagRegistry.Flag.CodingKeys.self))
    // The bundled registry is written in the same format, read as strictly.
    let bundled = try JSONDecoder().decode(
      FlagRegistry.self,
      from: Data(contentsOf: ScratchCorpus.repository.appendingPathComponent("Vectors/flags.json")))
    #expect(bundled.flags == FlagRegistry.bundled.flags)
  }
}
