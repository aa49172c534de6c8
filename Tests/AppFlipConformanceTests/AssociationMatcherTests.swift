import Foundation
import Testing

@testable import AppFlipConformance

/// One file of the matcher's own vectors (`Vectors/matcher`, `Vectors/schema/matcher-file.schema.json`): association
/// files by name, and URLs with the decision Apple's documentation gives for them.
struct MatcherVectorFile: Decodable {
  /// One URL against one file and app.
  struct Vector: Decodable, Sendable, CustomTestStringConvertible {
    var id: String
    var description: String
    var spec: [String]
    var file: String
    var appID: String
    var url: String
    var opens: Bool
    var decidedBy: String?
    var firstClaimedBy: String?
    /// The file's JSON, filled in from the document's `files`.
    var json = Data()

    enum CodingKeys: String, CodingKey {
      case id, description, spec, file, appID, url, opens, decidedBy, firstClaimedBy
    }

    var testDescription: String { id }
  }

  var schemaVersion: Int
  var area: String
  var description: String
  var files: [String: JSONValue]
  var vectors: [Vector]

  /// Every vector of every file of `Vectors/matcher`, each with its file's JSON.
  static let all: [Vector] = {
    let folder = SourceTree.root.appendingPathComponent("Vectors/matcher")
    let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
    return names.filter { $0.hasSuffix(".json") }.sorted().flatMap { name -> [Vector] in
      guard let data = try? Data(contentsOf: folder.appendingPathComponent(name)),
        let document = try? JSONDecoder().decode(MatcherVectorFile.self, from: data)
      else {
        return [Vector(id: "unreadable \(name)", description: "", spec: [], file: "", appID: "", url: "", opens: false)]
      }
      return document.vectors.map { vector in
        var vector = vector
        vector.json = document.files[vector.file].flatMap { try? JSONEncoder().encode($0) } ?? Data()
        return vector
      }
    }
  }()
}

@Suite("Association matcher: Apple's rules for universal links (Vectors/matcher)", .serialized)
struct AssociationMatcherTests {
  @Test("Every matcher vector is decided as Apple's documentation says", arguments: MatcherVectorFile.all)
  func vector(_ vector: MatcherVectorFile.Vector) throws {
    let file = try AssociationFile(json: vector.json)
    let decision = file.decide(vector.url, for: vector.appID)
    #expect(decision.opens == vector.opens, "\(vector.id): \(vector.description)")
    #expect(decision.deciding?.location == vector.decidedBy, "\(vector.id): the deciding component")
    #expect(decision.earlierClaims.first?.appID == vector.firstClaimedBy, "\(vector.id): the app that claims it first")
  }

  @Test("The vectors hold every example of Apple's applinks pages, and each file is used")
  func coverage() throws {
    let vectors = MatcherVectorFile.all
    #expect(vectors.count >= 120)
    let files = Set(vectors.map(\.file))
    for example in [
      "applinks", "supporting-associated-domains", "details", "query", "substitution-variables",
      "wwdc2019-query-items", "wwdc2020-case-and-unicode", "app-search-paths", "app-search-not", "predefined-variables",
      "wwdc2020-defaults", "wwdc2020-substitution-variables",
    ] {
      #expect(files.contains(example), "no vector uses Apple's example \(example)")
    }
    #expect(vectors.allSatisfy { !$0.json.isEmpty }, "a vector names a file its document does not have")
    #expect(vectors.contains { $0.opens } && vectors.contains { !$0.opens })
  }

  /// A matcher that gets one of Apple's rules wrong, as the same file rewritten for the correct matcher: ignoring
  /// `exclude` is the file without it.
  static let misreadings: [(String, @Sendable (String, JSONValue) -> JSONValue?)] = [
    ("exclude ignored", { key, value in key == "exclude" ? nil : value }),
    ("caseSensitive ignored", { key, value in key == "caseSensitive" ? nil : value }),
    ("percentEncoded ignored", { key, value in key == "percentEncoded" ? nil : value }),
    ("query dictionaries ignored", { key, value in key == "?" && value.isObject ? nil : value }),
    ("fragments ignored", { key, value in key == "#" ? nil : value }),
    ("the last match wins", { key, value in key == "components" || key == "paths" ? value.reversedArray : value }),
    (
      "NOT ignored",
      { key, value in key == "paths" ? value.mapStrings { $0.replacingOccurrences(of: "NOT ", with: "") } : value }
    ),
    ("paths read beside components", { key, value in key == "components" ? nil : value }),
    ("substitution variables ignored", { key, value in key == "substitutionVariables" ? nil : value }),
  ]

  @Test("Each misreading of Apple's rules changes the decision of some vector", arguments: misreadings.map(\.0))
  func misreading(_ name: String) async throws {
    let rewrite = try #require(Self.misreadings.first { $0.0 == name }?.1)
    var changed: [String] = []
    var rewritten: [Data: AssociationFile] = [:]  // each file rewritten once, not once per vector
    for vector in MatcherVectorFile.all {
      await Task.yield()  // a second of matching under load: the cooperative pool's other tests get their turns
      let file =
        try rewritten[vector.json]
        ?? AssociationFile(
          json: JSONEncoder().encode(JSONDecoder().decode(JSONValue.self, from: vector.json).rewritten(rewrite)))
      rewritten[vector.json] = file
      let decision = file.decide(vector.url, for: vector.appID)
      if decision.opens != vector.opens || decision.deciding?.location != vector.decidedBy
        || decision.earlierClaims.first?.appID != vector.firstClaimedBy
      {
        changed.append(vector.id)
      }
    }
    #expect(!changed.isEmpty, "no vector catches a matcher with \(name)")
  }

  @Test("A pattern matches in one pass: a 10 KB subject against stars and a variable")
  func linearMatching() throws {
    let pattern = try AssociationPattern("*a*b*c*$(digit)", ignoresCase: true)
    #expect(!pattern.matches(String(repeating: "ab", count: 5000)))
    #expect(pattern.matches(String(repeating: "x", count: 10000) + "ABC7"))
  }

  @Test("The file's problems name the place and what Apple does with it")
  func problems() throws {
    let json = #"""
      {"applinks": {"details": [{"appIDs": ["ABCDE12345.com.partner.app"], "components": [
        {"/": "/app*", "exlude": true}, {"/": 7}, {"/": "/$(nope)"}, {"?": ["a"]}]}]}}
      """#
    let file = try AssociationFile(json: Data(json.utf8))
    let messages = file.problems.map { "\($0.location) \($0.message)" }
    #expect(
      messages.contains(
        "applinks.details[0].components[0] has the key \"exlude\", which Apple ignores (did you mean \"exclude\"?)"))
    #expect(messages.contains("applinks.details[0].components[1] has \"/\" as a number, not a string"))
    #expect(messages.contains { $0.contains("$(nope), which neither substitutionVariables nor Apple defines") })
    #expect(messages.contains("applinks.details[0].components[3] has \"?\" as an array, not a string"))
    #expect(file.problems.map(\.breaks) == [false, true, true, true])
  }

  @Test(
    "A file that is not an association file is refused with one sentence",
    arguments: [
      ("", "is empty, not JSON"), ("<html>", "is not JSON: line 1, column 1: expected a value, found \"<\""),
      ("[]", "is JSON an array, not an object with \"applinks\""),
      ("{\"webcredentials\": {}}", "has no \"applinks\" object, the only part Apple reads universal links from"),
      ("{\"applinks\": {\"details\": {}}}", "has \"applinks.details\" as an object, not an array"),
    ])
  func unusable(_ text: String, _ message: String) {
    #expect(throws: AssociationFile.Unusable(message: message)) { try AssociationFile(json: Data(text.utf8)) }
  }
}

extension JSONValue {
  /// The value with every object member passed through `rewrite` (`nil` drops it), depth first.
  func rewritten(_ rewrite: (String, JSONValue) -> JSONValue?) -> JSONValue {
    switch self {
    case .object(let members):
      var out: [String: JSONValue] = [:]
      for (key, value) in members { out[key] = rewrite(key, value.rewritten(rewrite)) }
      return .object(out)
    case .array(let items): return .array(items.map { $0.rewritten(rewrite) })
    default: return self
    }
  }

  var isObject: Bool { if case .object = self { true } else { false } }

  var reversedArray: JSONValue { if case .array(let items) = self { .array(items.reversed()) } else { self } }

  func mapStrings(_ transform: (String) -> String) -> JSONValue {
    guard case .array(let items) = self else { return self }
    return .array(items.map { if case .string(let text) = $0 { .string(transform(text)) } else { $0 } })
  }
}
