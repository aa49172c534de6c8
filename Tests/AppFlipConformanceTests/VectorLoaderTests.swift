import AppFlipConformance
import Foundation
import Testing

@Suite("Vector loader")
struct VectorLoaderTests {
  @Test("Loads a valid vector with its file and area")
  func loadsValid() throws {
    let catalog = Fixtures.catalog([Fixtures.accepted()])
    #expect(catalog.problems.isEmpty)
    let loaded = try #require(catalog.vectors.first)
    #expect(loaded.vector.id == "t/ok")
    #expect(loaded.file == "mine/t.json")
    #expect(loaded.area == "t")
  }

  @Test("Refuses a misspelled field, naming file, vector and field, and suggesting the right name")
  func unknownField() throws {
    let catalog = Fixtures.catalog([
      Fixtures.accepted(
        expect: """
          {"verdict": "accepted", "authorization": {"clientId": "{client_id}", "redirectUri": "\(Fixtures.redirect)"},
           "reply": {"base": "\(Fixtures.redirect)", "code": "c1", "stat": "s1"}}
          """)
    ])
    #expect(catalog.vectors.isEmpty)
    let problem = try #require(catalog.problems.first)
    #expect(problem.vectorID == "t/ok")
    let text = problem.description
    #expect(text.contains("mine/t.json"))
    #expect(text.contains("\"t/ok\""))
    #expect(text.contains("vectors[0].expect.reply.stat"))
    #expect(text.contains("did you mean \"state\"?"))
  }

  @Test("One bad vector does not hide the good ones")
  func carriesOn() {
    let catalog = Fixtures.catalog([Fixtures.accepted(id: "t/bad", extra: "\"levle\": \"must\","), Fixtures.accepted()])
    #expect(catalog.vectors.map(\.vector.id) == ["t/ok"])
    #expect(catalog.problems.map(\.vectorID) == ["t/bad"])
  }

  @Test("Rejects duplicate vector ids")
  func duplicateIDs() {
    var catalog = Fixtures.catalog([Fixtures.accepted()])
    catalog.merge(VectorLoader.decode(Fixtures.file([Fixtures.accepted()]), displayPath: "other.json"))
    #expect(catalog.vectors.count == 1)
    #expect(catalog.problems == [.duplicateID(file: "other.json", vectorID: "t/ok", firstFile: "mine/t.json")])
  }

  @Test(
    "Rejects wrong types and bad values, quoting the value and naming the field",
    arguments: [
      ("\"level\": \"must\"", "\"level\": \"mustt\"", "mustt", "vectors[0].level"),
      (
        "\"level\": \"must\"", "\"level\": \"must\", \"tags\": \"x\"", "\"x\" has the wrong type; write an array",
        "vectors[0].tags"
      ),
      (
        "\"level\": \"must\"", "\"level\": \"must\", \"flags\": [\"no-such-flag\"]", "no-such-flag",
        "vectors[0].flags[0]"
      ),
      ("\"rules\": [\"AF-RE-2\"]", "\"rules\": [\"RE-2\"]", "RE-2", "vectors[0].rules[0]"),
      ("\"result\": \"granted\"", "\"result\": \"grant\"", "grant", "vectors[0].outcome.result"),
    ])
  func wrongValues(_ original: String, _ replacement: String, _ quoted: String, _ field: String) throws {
    let vector = Fixtures.accepted().replacingOccurrences(of: original, with: replacement)
    let problem = try #require(Fixtures.catalog([vector]).problems.first)
    #expect(problem.description.contains(quoted))
    #expect(problem.description.contains(field))
    #expect(problem.vectorID == "t/ok")
  }

  @Test("Rejects a missing expectation")
  func missingExpectation() throws {
    let vector = """
      {"id": "t/x", "description": "d", "spec": ["s"], "rules": ["AF-RE-2"], "level": "must",
       "incoming": {"params": []}}
      """
    let problem = try #require(Fixtures.catalog([vector]).problems.first)
    #expect(problem == .missingField(file: "mine/t.json", vectorID: "t/x", field: "vectors[0].expect"))
  }

  @Test(
    "Rejects expectations that contradict the verdict rules",
    arguments: [
      """
      {"verdict": "ignored", "reply": {"base": "\(Fixtures.redirect)", "error": "invalid_request"}}
      """,
      """
      {"verdict": "rejected", "reply": {"base": "\(Fixtures.redirect)", "error": "access_denied"}}
      """,
      """
      {"verdict": "accepted", "reply": {"base": "\(Fixtures.redirect)", "code": "c1"}}
      """,
      """
      {"verdict": "accepted", "authorization": {"clientId": "x", "redirectUri": "\(Fixtures.redirect)"},
       "reply": {"base": "\(Fixtures.redirect)", "code": "c2"}}
      """,
      """
      {"verdict": "accepted", "authorization": {"clientId": "x", "redirectUri": "\(Fixtures.redirect)"},
       "reply": {"base": "\(Fixtures.redirect)", "error": "cancelled"}}
      """,
    ])
  func inconsistent(_ expect: String) {
    let catalog = Fixtures.catalog([Fixtures.accepted(expect: expect)])
    #expect(catalog.vectors.isEmpty)
    #expect(catalog.problems.count >= 1)
  }

  @Test("Rejects an unknown placeholder as a likely typo")
  func unknownPlaceholder() throws {
    let vector = Fixtures.accepted().replacingOccurrences(
      of: "[\"client_id\", \"{client_id}\"]", with: "[\"client_id\", \"{clientid}\"]")
    let problem = try #require(Fixtures.catalog([vector]).problems.first)
    #expect(problem.description.contains("{clientid}"))
  }

  @Test("Rejects a file that is not JSON, or of another schema version")
  func badFiles() {
    #expect(
      VectorLoader.decode(Data("{".utf8), displayPath: "x.json").problems.first?.description.contains(
        "x.json: line 1, column 2: not valid JSON")
        == true)
    let future = Data(#"{"schemaVersion": 2, "area": "a", "description": "d", "vectors": []}"#.utf8)
    #expect(
      VectorLoader.decode(future, displayPath: "x.json").problems == [
        .unsupportedSchemaVersion(file: "x.json", version: 2)
      ])
  }

  @Test("Reports a missing folder instead of loading nothing")
  func missingFolder() {
    let catalog = VectorLoader.load(URL(fileURLWithPath: "/nonexistent/vectors"), displayPath: "/nonexistent/vectors")
    #expect(catalog.problems.first?.description.contains("no such file") == true)
  }

  @Test("Round-trips a vector through its Codable form")
  func roundTrip() throws {
    let vector = try #require(Fixtures.catalog([Fixtures.accepted()]).vectors.first?.vector)
    let data = try JSONEncoder().encode(VectorFile(area: "t", description: "d", vectors: [vector]))
    #expect(VectorLoader.decode(data, displayPath: "r.json").vectors.first?.vector == vector)
  }
}
