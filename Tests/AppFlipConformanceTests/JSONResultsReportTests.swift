import AppFlip
import AppFlipConformance
import Foundation
import Testing

/// Checks a value against the subset of JSON Schema 2020-12 that `Docs/results.schema.json` uses.
///
/// A keyword outside that subset is reported as a problem, so the check never passes by ignoring part of the schema;
/// `.ci/run` validates with Python's jsonschema as well.
struct SchemaCheck {
  static let annotations: Set = ["$schema", "$id", "title", "description", "$defs", "format"]
  static let assertions: Set = [
    "type", "const", "enum", "required", "properties", "additionalProperties", "items", "minimum", "minLength",
    "pattern", "$ref",
  ]

  let root: [String: JSONValue]
  var problems: [String] = []

  static func problems(of value: JSONValue, against schema: JSONValue) -> [String] {
    guard case .object(let root) = schema else { return ["the schema is not an object"] }
    var check = SchemaCheck(root: root)
    check.validate(value, root, at: "")
    return check.problems
  }

  mutating func validate(_ value: JSONValue, _ schema: [String: JSONValue], at path: String) {
    for keyword in schema.keys.sorted()
    where !Self.annotations.contains(keyword) && !Self.assertions.contains(keyword) {
      problems.append("\(path): unsupported schema keyword \(keyword)")
    }
    if case .string(let reference)? = schema["$ref"] {
      let name = reference.replacingOccurrences(of: "#/$defs/", with: "")
      guard case .object(let defs)? = root["$defs"], case .object(let target)? = defs[name] else {
        problems.append("\(path): unresolved $ref \(reference)")
        return
      }
      validate(value, target, at: path)
    }
    if case .string(let type)? = schema["type"], !Self.matches(value, type) {
      problems.append("\(path): \(value) is not of type \(type)")
      return
    }
    if let constant = schema["const"], !Self.equal(value, constant) {
      problems.append("\(path): \(value) is not \(constant)")
    }
    if case .array(let options)? = schema["enum"], !options.contains(where: { Self.equal(value, $0) }) {
      problems.append("\(path): \(value) is not one of \(options)")
    }
    switch value {
    case .object(let object):
      if case .array(let required)? = schema["required"] {
        for case .string(let key) in required where object[key] == nil {
          problems.append("\(path): missing \(key)")
        }
      }
      var properties: [String: JSONValue] = [:]
      if case .object(let declared)? = schema["properties"] { properties = declared }
      for (key, member) in object.sorted(by: { $0.key < $1.key }) {
        if case .object(let memberSchema)? = properties[key] {
          validate(member, memberSchema, at: "\(path)/\(key)")
        } else if schema["additionalProperties"] == .bool(false) {
          problems.append("\(path): unexpected property \(key)")
        }
      }
    case .array(let items):
      if case .object(let itemSchema)? = schema["items"] {
        for (index, item) in items.enumerated() { validate(item, itemSchema, at: "\(path)/\(index)") }
      }
    case .string(let string):
      if case .int(let minimum)? = schema["minLength"], string.count < minimum {
        problems.append("\(path): shorter than \(minimum)")
      }
      if case .string(let pattern)? = schema["pattern"],
        string.range(of: pattern, options: .regularExpression) == nil
      {
        problems.append("\(path): \"\(string)\" does not match \(pattern)")
      }
    case .int(let number):
      if case .int(let minimum)? = schema["minimum"], number < minimum { problems.append("\(path): below minimum") }
    case .double(let number):
      if case .int(let minimum)? = schema["minimum"], number < Double(minimum) {
        problems.append("\(path): below minimum")
      }
    case .null, .bool:
      break
    }
  }

  static func matches(_ value: JSONValue, _ type: String) -> Bool {
    switch (type, value) {
    case ("object", .object), ("array", .array), ("string", .string), ("boolean", .bool), ("null", .null),
      ("integer", .int), ("number", .int), ("number", .double):
      true
    default:
      false
    }
  }

  static func equal(_ lhs: JSONValue, _ rhs: JSONValue) -> Bool {
    switch (lhs, rhs) {
    case (.int(let a), .double(let b)), (.double(let b), .int(let a)): Double(a) == b
    default: lhs == rhs
    }
  }
}

@Suite("JSON results report")
struct JSONResultsReportTests {
  static let startedAt = Date(timeIntervalSince1970: 1_750_000_000.75)

  static let implementation = JSONResultsReport.Document.Implementation(
    name: "AcmeAppFlip", version: "2.1.0", language: "Swift")

  static let configuration = PartnerConfiguration(
    clientID: "123-acme.apps.googleusercontent.com", universalLink: "https://acme.example/appflip",
    allowList: RedirectAllowList(["https://oauth-redirect.googleusercontent.com/a/com.google.OPA"]))

  static func document(_ results: [VectorResult] = ReportSamples.results) -> JSONResultsReport.Document {
    JSONResultsReport.Document(
      results: results, implementation: implementation, configuration: configuration, startedAt: startedAt)
  }

  static let schemaURL = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("Docs/results.schema.json")

  @Test("Round-trips: decoding the encoded document gives an equal document, results included")
  func roundTrip() throws {
    let document = Self.document()
    let decoded = try JSONResultsReport.decode(ReportFile.json(document))
    #expect(decoded == document)
    #expect(decoded.results.map(\.id) == ReportSamples.results.map(\.id))
    #expect(decoded.results[1].findings == ReportSamples.userinfo.findings)
    #expect(decoded.results[1].flags == ["open-redirect"])
    #expect(decoded.configuration == Self.configuration)
  }

  @Test("Pins the format, the suite version, the implementation and the configuration")
  func header() throws {
    let json = try #require(
      JSONSerialization.jsonObject(with: ReportFile.json(Self.document())) as? [String: Any])
    #expect(json["format"] as? String == "appflip-conformance-results")
    #expect(json["formatVersion"] as? Int == 1)
    #expect(
      json["suite"] as? [String: String]
        == ["name": SuiteInfo.name, "version": SuiteInfo.version, "commit": SuiteInfo.commit])
    #expect(
      json["implementation"] as? [String: String] == ["name": "AcmeAppFlip", "version": "2.1.0", "language": "Swift"])
    let configuration = try #require(json["configuration"] as? [String: Any])
    #expect(configuration["clientId"] as? String == "123-acme.apps.googleusercontent.com")
    #expect(configuration["universalLink"] as? String == "https://acme.example/appflip")
    #expect(
      configuration["allowedRedirectUris"] as? [String] == [
        "https://oauth-redirect.googleusercontent.com/a/com.google.OPA"
      ])
    #expect(json["startedAt"] as? String == "2025-06-15T15:06:40Z")
    let summary = try #require(json["summary"] as? [String: Int])
    #expect(
      summary == [
        "passed": 1, "failed": 2, "warnings": 1, "skipped": 1, "errors": 1, "stale": 0, "inconclusive": 0, "total": 6,
      ])
  }

  @Test("Gives each vector its expected against actual, field by field; a passed vector has no findings")
  func perVector() throws {
    let json = try #require(
      JSONSerialization.jsonObject(with: ReportFile.json(Self.document())) as? [String: Any])
    let results = try #require(json["results"] as? [[String: Any]])
    #expect(results.count == 6)
    #expect(results[0]["status"] as? String == "passed")
    #expect((results[0]["findings"] as? [Any])?.isEmpty == true)
    let finding = try #require((results[2]["findings"] as? [[String: String]])?.first)
    #expect(
      finding == [
        "rule": "AF-RE-2", "level": "must", "field": "reply.state", "expected": "\"s1\"", "actual": "absent",
        "message": "The reply must carry state.",
      ])
    #expect(results[1]["duration"] as? Double == 0.012346)
    #expect(results[5]["message"] as? String == "the implementation did not answer within 10 seconds")
    #expect(results[5]["diagnostics"] as? String == "waiting for OAuth…")
  }

  @Test("Is byte-identical across two renders of the same input, with sorted keys")
  func deterministic() throws {
    let first = try ReportFile.json(Self.document())
    let second = try ReportFile.json(Self.document())
    #expect(first == second)
    let text = String(decoding: first, as: UTF8.self)
    let keys = ["configuration", "duration", "format", "formatVersion", "implementation", "results", "startedAt"]
    let offsets = keys.map { text.range(of: "\n  \"\($0)\"")!.lowerBound }
    #expect(offsets == offsets.sorted())
    #expect(text.hasSuffix("}\n"))
    #expect(text.contains("\"https://acme.example/appflip\""))
  }

  @Test("Leaves out an unknown implementation version and language")
  func optionalImplementationFields() throws {
    let document = JSONResultsReport.Document(
      results: [], implementation: .init(name: "bare"), configuration: .default, startedAt: Self.startedAt)
    let json = try #require(
      JSONSerialization.jsonObject(with: ReportFile.json(document)) as? [String: Any])
    #expect(json["implementation"] as? [String: String] == ["name": "bare"])
    #expect(try JSONResultsReport.decode(ReportFile.json(document)) == document)
  }

  @Test("Refuses another format and a newer format version")
  func refusesOthers() throws {
    let data = try ReportFile.json(Self.document())
    let text = String(decoding: data, as: UTF8.self)
    let otherFormat = text.replacingOccurrences(of: "\"appflip-conformance-results\"", with: "\"junit\"")
    #expect(throws: DecodingError.self) { try JSONResultsReport.decode(Data(otherFormat.utf8)) }
    let newer = text.replacingOccurrences(of: "\"formatVersion\" : 1", with: "\"formatVersion\" : 2")
    #expect(newer != text)
    #expect(throws: DecodingError.self) { try JSONResultsReport.decode(Data(newer.utf8)) }
  }

  @Test("Writes atomically into a new folder and reads back")
  func writes() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("results-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: folder) }
    let url = folder.appendingPathComponent("deep/results.json")
    try JSONResultsReport.write(
      ReportSamples.results, implementation: Self.implementation, configuration: Self.configuration,
      startedAt: Self.startedAt, to: url)
    #expect(try JSONResultsReport.read(from: url) == Self.document())
    #expect(try Data(contentsOf: url) == ReportFile.json(Self.document()))
  }

  @Test("Matches Docs/results.schema.json")
  func matchesSchema() throws {
    let schema = try JSONValue.parse(Data(contentsOf: Self.schemaURL))
    let document = try JSONValue.parse(ReportFile.json(Self.document()))
    #expect(SchemaCheck.problems(of: document, against: schema) == [])
    let empty = JSONResultsReport.Document(
      results: [], implementation: .init(name: "bare"), configuration: .default, startedAt: Self.startedAt)
    #expect(SchemaCheck.problems(of: try JSONValue.parse(ReportFile.json(empty)), against: schema) == [])
  }

  @Test("Records stale waivers, an interruption and unlisted redirect URIs, within the schema, and reads them back")
  func staleInterruptedUnlisted() throws {
    let url = "https://oauth-redirect.googleusercontent.com/a/com.google.NewApp"
    let configuration = PartnerConfiguration(
      clientID: "c", universalLink: "https://acme.example/appflip", allowList: RedirectAllowList([url]),
      allowsUnlistedRedirectURIs: true)
    var notRun = VectorResult(
      id: "t/2", area: "t", file: "f", level: .must, status: .skipped, message: "not run: interrupted (SIGINT)")
    notRun.isNotRun = true
    let results = [
      VectorResult(id: "t/fixed", area: "t", file: "f", level: .must, status: .stale, message: "stale waiver: …"),
      notRun,
    ]
    let document = JSONResultsReport.Document(
      results: results, implementation: .init(name: "i"), configuration: configuration, startedAt: Self.startedAt,
      stopReason: "interrupted (SIGINT)")
    #expect(document.summary.stale == 1)
    #expect(document.interrupted == .init(reason: "interrupted (SIGINT)", notRun: 1))
    #expect(document.configuration.unlistedRedirectURIs == [url])
    let data = try ReportFile.json(document)
    // The configuration in the configuration file's names, with the derived list of URLs that are not Google's.
    guard case .object(let written) = try JSONValue.parse(data), case .object(let entry)? = written["configuration"]
    else {
      Issue.record("the document has no configuration object")
      return
    }
    #expect(entry["unlistedRedirectUris"] == .array([.string(url)]))
    #expect(entry["allowUnlistedRedirectUris"] == .bool(true))
    #expect(entry["clientId"] == .string("c"))
    let schema = try JSONValue.parse(Data(contentsOf: Self.schemaURL))
    #expect(SchemaCheck.problems(of: try JSONValue.parse(data), against: schema) == [])
    let decoded = try JSONResultsReport.decode(data)
    #expect(decoded == document)
    #expect(decoded.configuration == configuration)
    #expect(decoded.results[0].status == .stale)
    // A document written before stale waivers and interruptions were recorded still reads, with none of either.
    let old = String(decoding: try ReportFile.json(Self.document()), as: UTF8.self)
      .replacingOccurrences(of: "\"stale\" : 0,", with: "")
    #expect(!old.contains("\"stale\""))
    let read = try JSONResultsReport.decode(Data(old.utf8))
    #expect(read.summary.stale == 0)
    #expect(read.interrupted == nil)
  }

  @Test("The schema check bites: a missing field, an extra field or a bad level is a problem")
  func schemaCheckBites() throws {
    let schema = try JSONValue.parse(Data(contentsOf: Self.schemaURL))
    let text = String(decoding: try ReportFile.json(Self.document()), as: UTF8.self)
    let broken = [
      text.replacingOccurrences(of: "\"flags\" :", with: "\"flagz\" :"),
      text.replacingOccurrences(of: "\"level\" : \"should\"", with: "\"level\" : \"SHOULD\""),
      text.replacingOccurrences(of: "\"total\" : 6", with: "\"total\" : \"6\""),
    ]
    for variant in broken {
      #expect(variant != text)
      #expect(!SchemaCheck.problems(of: try JSONValue.parse(Data(variant.utf8)), against: schema).isEmpty)
    }
  }
}
