import AppFlipConformance
import Foundation
import Testing

@Suite("Vector ids in the docs")
struct DocumentedVectorIDTests {
  static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

  /// README.md, Vectors/README.md and every Markdown file in Docs/.
  static func documents() throws -> [(String, String)] {
    let docs = try FileManager.default.contentsOfDirectory(
      atPath: repository.appendingPathComponent("Docs").path
    ).filter { $0.hasSuffix(".md") }.sorted().map { "Docs/" + $0 }
    return try (["README.md", "Vectors/README.md"] + docs).map {
      ($0, try String(contentsOf: repository.appendingPathComponent($0), encoding: .utf8))
    }
  }

  /// Every mention of a vector id (or a glob of ids) in a text: `AREA/…` where AREA is the first part of a bundled id,
  /// in backticks, code blocks or prose alike, not inside a path (`Vectors/corpus/state.json`).
  static func mentions(in text: String, areas: Set<String>) -> [String] {
    let alternation = areas.sorted().map(NSRegularExpression.escapedPattern(for:)).joined(separator: "|")
    let pattern = "(?<![A-Za-z0-9/._-])(?:\(alternation))/[a-z0-9._/*?-]*[a-z0-9*?]"
    let regex = try! NSRegularExpression(pattern: pattern)
    let range = NSRange(text.startIndex..., in: text)
    return regex.matches(in: text, range: range).compactMap { Range($0.range, in: text).map { String(text[$0]) } }
  }

  @Test("Every vector id README.md, Vectors/README.md and Docs/*.md mention exists in the bundled corpus")
  func documentedIDsExist() throws {
    let ids = (VectorLoader.loadBundled(.app).vectors + VectorLoader.loadBundled(.endpoint).vectors).map(\.vector.id)
    let known = Set(ids)
    let areas = Set(ids.compactMap { $0.split(separator: "/").first.map(String.init) })
    #expect(areas.isSuperset(of: ["redirect-uri", "state", "endpoint"]))
    var checked = 0
    var wrong: [String] = []
    for (name, text) in try Self.documents() {
      for mention in Self.mentions(in: text, areas: areas) {
        checked += 1
        let exists =
          mention.contains("*") || mention.contains("?")
          ? ids.contains { VectorFilter.glob(mention, matches: $0) } : known.contains(mention)
        if !exists { wrong.append("\(name): \(mention)") }
      }
    }
    #expect(wrong == [], "these docs name vector ids (or globs) that match no bundled vector; write real ones")
    // The README alone names a few dozen ids (the kill matrix, the examples): the scan must find them.
    #expect(checked > 20)
  }

  @Test("The scan finds ids in backticks, JSON and prose, and leaves paths alone")
  func scanner() {
    let text = """
      `redirect-uri/userinfo-before-host` and {"id": "state/made-up"}, FAIL flow/replay-three-times [must]
      Vectors/corpus/state.json, Vectors/endpoint/README.md, --filter 'redirect-uri/case/*', `acme/replay`
      """
    #expect(
      Self.mentions(in: text, areas: ["redirect-uri", "state", "flow", "endpoint"]) == [
        "redirect-uri/userinfo-before-host", "state/made-up", "flow/replay-three-times", "redirect-uri/case/*",
      ])
  }
}
