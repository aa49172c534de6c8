import AppFlipConformance
import Foundation
import Testing

#if canImport(FoundationXML)
  import FoundationXML
#endif

/// Counts elements and collects attributes of a JUnit file with Foundation's XML parser (fails on malformed XML).
final class JUnitReader: NSObject, XMLParserDelegate {
  var counts: [String: Int] = [:]
  var testcases: [[String: String]] = []
  var suites: [[String: String]] = []
  var root: [String: String] = [:]
  var text = ""

  static func read(_ xml: String) throws -> JUnitReader {
    let reader = JUnitReader()
    let parser = XMLParser(data: Data(xml.utf8))
    parser.delegate = reader
    guard parser.parse() else { throw parser.parserError ?? CocoaError(.fileReadCorruptFile) }
    return reader
  }

  func parser(
    _ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
    attributes: [String: String] = [:]
  ) {
    counts[name, default: 0] += 1
    if name == "testcase" { testcases.append(attributes) }
    if name == "testsuite" { suites.append(attributes) }
    if name == "testsuites" { root = attributes }
  }

  func parser(_ parser: XMLParser, foundCharacters string: String) {
    text += string
  }
}

@Suite("JUnit report")
struct JUnitReportTests {
  static let results = [
    VectorResult(
      id: "a/pass", area: "a", file: "f.json", level: .must, spec: ["RFC 6749 §3.1"], tags: ["x"], status: .passed,
      duration: 0.123456),
    VectorResult(
      id: "a/fail", area: "a", file: "f.json", level: .must, status: .failed,
      findings: [
        Finding(
          rule: "AF-RE-2", level: .must, field: "reply.state", expected: "\"<&>\"", actual: "\"\u{0}\u{1B}\u{FFFE}\"",
          message: "m")
      ]),
    VectorResult(
      id: "b/warn", area: "b", file: "g.json", level: .should, status: .warning,
      findings: [
        Finding(rule: "AF-RE-6", level: .should, field: "reply.state", expected: "e", actual: "a", message: "ambiguous")
      ]),
    VectorResult(id: "b/skip", area: "b", file: "g.json", level: .must, status: .skipped, message: "not \"here\""),
    VectorResult(
      id: "b/err", area: "b", file: "g.json", level: .must, status: .error, message: "hung\nline2",
      diagnostics: "stderr \u{7}"),
  ]

  @Test("Writes one testcase per result with counts that match")
  func counts() throws {
    let reader = try JUnitReader.read(JUnitReport.render(Self.results, implementation: "impl"))
    #expect(reader.counts["testcase"] == 5)
    #expect(reader.counts["testsuite"] == 2)
    #expect(reader.counts["failure"] == 1)
    #expect(reader.counts["error"] == 1)
    #expect(reader.counts["skipped"] == 1)
    #expect(reader.root["tests"] == "5")
    #expect(reader.root["failures"] == "1")
    #expect(reader.root["errors"] == "1")
    let names = reader.testcases.map { "\($0["classname"]!)|\($0["name"]!)" }
    #expect(Set(names).count == names.count)
  }

  @Test("Counts each suite's own tests, failures, errors and skips")
  func suiteCounts() throws {
    let reader = try JUnitReader.read(JUnitReport.render(Self.results, implementation: "impl"))
    let counts = reader.suites.map { suite in
      ["name", "tests", "failures", "errors", "skipped"].map { suite[$0] ?? "-" }.joined(separator: " ")
    }
    #expect(counts == ["a 2 1 0 0", "b 3 0 1 1"])
  }

  @Test("Makes every byte of vector data XML-safe")
  func xmlSafe() throws {
    let xml = JUnitReport.render(Self.results, implementation: "i<m>p&l")
    let reader = try JUnitReader.read(xml)
    #expect(reader.text.contains("\\u{0}\\u{1B}\\u{FFFE}"))
    #expect(reader.text.contains("\"<&>\""))
    #expect(!xml.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" })
  }

  @Test("Writes times with at most three decimals")
  func times() throws {
    let reader = try JUnitReader.read(JUnitReport.render(Self.results, implementation: "impl"))
    #expect(reader.testcases.first?["time"] == "0.123")
  }

  @Test("Keeps warnings visible in the test case output")
  func warningsVisible() throws {
    let reader = try JUnitReader.read(JUnitReport.render(Self.results, implementation: "impl"))
    #expect(reader.text.contains("WARNING (SHOULD): AF-RE-6 reply.state"))
  }

  @Test("Writes atomically into a new folder")
  func writes() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("junit-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: folder) }
    let url = folder.appendingPathComponent("deep/report.xml")
    try JUnitReport.write(Self.results, implementation: "impl", to: url)
    let reader = try JUnitReader.read(String(decoding: try Data(contentsOf: url), as: UTF8.self))
    #expect(reader.counts["testcase"] == 5)
  }

  @Test("Carries each vector's metadata once: in its test case's output, not again as suite properties")
  func metadataOnce() throws {
    let xml = JUnitReport.render(Self.results, implementation: "impl")
    let reader = try JUnitReader.read(xml)
    // Five run-wide properties per suite (suite.version, suite.commit, implementation, warnings, inconclusive), none
    // per vector.
    #expect(reader.counts["property"] == 5 * reader.counts["testsuite"]!)
    for suffix in [".spec", ".tags", ".level", ".status"] {
      #expect(!xml.contains("\(suffix)\" value="), "a per-vector \(suffix) property is back")
    }
    #expect(reader.text.contains("level: must\nspec: RFC 6749 §3.1\ntags: x\nfile: f.json"))
    #expect(xml.components(separatedBy: "<system-out>").count - 1 == Self.results.count)
  }

  @Test("Escapes markup, quotes, line breaks and characters XML cannot carry, in attributes and in text")
  func escapingBytes() throws {
    let tricky = "a\"b\n\tc\r&<>\u{1}\u{FFFE}\u{FFFF}é\u{1F600}\u{EF}\u{FFFD}"
    let result = VectorResult(
      id: tricky, area: "t", file: "f", level: .must, status: .error, message: tricky, diagnostics: tricky)
    let xml = JUnitReport.testcase(result)
    let attribute = #"a&quot;b&#10;&#9;c&#13;&amp;&lt;&gt;\u{1}\u{FFFE}\u{FFFF}é😀ï�"#
    let text = "a\"b\n\tc&#13;&amp;&lt;&gt;\\u{1}\\u{FFFE}\\u{FFFF}é😀ï�"
    #expect(xml.contains(#"name=""# + attribute + #"""#))
    #expect(xml.contains("<system-err>" + text + "</system-err>"))
    let plain = VectorResult(id: "t/plain-é", area: "t", file: "f", level: .must, status: .passed)
    #expect(JUnitReport.testcase(plain).contains(#"name="t/plain-é""#))
  }

  @Test("Writes times with three decimals, rounded, never negative")
  func timeDigits() throws {
    let results = [1_234.567_89, -2, 0.000_4, 0.000_6, 59.999_9].enumerated().map { index, seconds in
      VectorResult(id: "t/\(index)", area: "t", file: "f", level: .must, status: .passed, duration: seconds)
    }
    let reader = try JUnitReader.read(JUnitReport.render(results, implementation: "impl"))
    #expect(reader.testcases.map { $0["time"] ?? "" } == ["1234.568", "0.000", "0.000", "0.001", "60.000"])
  }

  @Test("With the run's wall-clock time, the top-level time is it and the suites share it in proportion, adding up")
  func wallClockTimes() throws {
    let results = [("a", 3.0), ("a", 1.0), ("b", 2.0), ("b", 2.0)].enumerated().map { index, pair in
      VectorResult(id: "t/\(index)", area: pair.0, file: "f", level: .must, status: .passed, duration: pair.1)
    }
    let summed = try JUnitReader.read(
      String(decoding: JUnitReport.data(results, implementation: "impl"), as: UTF8.self))
    #expect(summed.root["time"] == "8.000")
    #expect(summed.suites.map { $0["time"] ?? "" } == ["4.000", "4.000"])
    let wall = try JUnitReader.read(
      String(decoding: JUnitReport.data(results, implementation: "impl", wallClock: 2), as: UTF8.self))
    #expect(wall.root["time"] == "2.000")
    #expect(wall.suites.map { $0["time"] ?? "" } == ["1.000", "1.000"])
    #expect(wall.testcases.map { $0["time"] ?? "" } == ["3.000", "1.000", "2.000", "2.000"])
  }
}
