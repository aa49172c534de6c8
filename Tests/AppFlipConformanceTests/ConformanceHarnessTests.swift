import AppFlip
import AppFlipConformance
import AppFlipConformanceTesting
import Foundation
import Testing

@Suite("Swift Testing harness")
struct ConformanceHarnessTests {
  let folder: URL = {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("harness-\(UUID().uuidString)")
    try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
  }()

  func write(_ name: String, _ data: Data) throws -> URL {
    let url = folder.appendingPathComponent(name)
    try data.write(to: url)
    return url
  }

  @Test(
    "Applies waivers per case: a waived failure is skipped, a stale one is stale, an unmatched one is its own error case"
  )
  func waivers() async throws {
    let wrong = Fixtures.accepted(id: "t/wrong").replacingOccurrences(
      of: "\"state\": \"s1\"}", with: "\"state\": \"s2\"}")
    let vectors = try write("v.json", Fixtures.file([wrong, Fixtures.accepted(id: "t/ok")]))
    let waivers = try write(
      "w.json",
      Data(
        #"{"schemaVersion": 1, "waivers": [{"id": "t/wrong", "reason": "known"}, {"id": "t/ok", "reason": "old"}, {"id": "t/gone", "reason": "x"}]}"#
          .utf8))
    let harness = ConformanceHarness(
      handler: ReferenceHandlerAdapter(), vectors: [vectors], bundled: false, junit: nil, waivers: waivers)
    #expect(harness.cases.map(\.id) == ["t/wrong", "t/ok", "waiver t/gone"])
    var statuses: [Status] = []
    for testCase in harness.cases { statuses.append(await harness.run(testCase).status) }
    #expect(statuses == [.skipped, .stale, .error])
  }

  @Test("Checks the configuration first: each problem is an error case naming the field, never a handler failure")
  func checksConfiguration() async throws {
    let vectors = try write("ok.json", Fixtures.file([Fixtures.accepted()]))
    let configuration = PartnerConfiguration(
      clientID: "", universalLink: "https://acme.example/flip",
      allowList: RedirectAllowList(["https://evil.example/cb"]))
    let harness = ConformanceHarness(
      handler: ReferenceHandlerAdapter(), configuration: configuration, vectors: [vectors], bundled: false, junit: nil)
    let problems = harness.cases.filter { $0.id.hasPrefix("configuration ") }
    #expect(problems.map(\ConformanceCase.id) == ["configuration clientId", "configuration allowedRedirectUris[0]"])
    let result = await harness.run(problems[1])
    #expect(result.status == .error)
    #expect(result.area == "configuration")
    #expect(result.message.contains(#""https://evil.example/cb" is not allowed: it is not one of Google's twelve"#))
  }

  @Test("Fails a filter that selects no vector instead of running zero cases green")
  func emptySelection() async throws {
    let vectors = try write("ok.json", Fixtures.file([Fixtures.accepted()]))
    let harness = ConformanceHarness(
      handler: ReferenceHandlerAdapter(), vectors: [vectors], bundled: false,
      filter: VectorFilter(idPatterns: ["outcome/*"]), junit: nil)
    #expect(harness.cases.map(\ConformanceCase.id) == ["selection"])
    let result = await harness.run(harness.cases[0])
    #expect(result.status == .error)
    #expect(result.message.contains("--filter 'outcome/*' matches none of the 1 loaded vectors"))
  }

  @Test("Turns an unusable vector file into an error case instead of losing it")
  func badFile() async throws {
    let vectors = try write("bad.json", Data("{".utf8))
    let harness = ConformanceHarness(handler: ReferenceHandlerAdapter(), vectors: [vectors], bundled: false, junit: nil)
    #expect(harness.cases.count == 1)
    let result = await harness.run(harness.cases[0])
    #expect(result.status == .error)
    #expect(result.message.contains("bad.json"))
  }

  @Test("Keeps both a vector and the duplicate-id problem that shares its id in the JUnit report")
  func duplicateIDsInReport() async throws {
    let first = try write("a.json", Fixtures.file([Fixtures.accepted(id: "t/same")]))
    let second = try write("b.json", Fixtures.file([Fixtures.accepted(id: "t/same")]))
    let report = folder.appendingPathComponent("report.xml")
    let harness = ConformanceHarness(
      handler: ReferenceHandlerAdapter(), vectors: [first, second], bundled: false, junit: report.path)
    #expect(harness.cases.map(\.id) == ["t/same", "t/same"])
    for testCase in harness.cases.reversed() { _ = await harness.run(testCase) }
    let reader = try JUnitReader.read(try String(contentsOf: report, encoding: .utf8))
    #expect(reader.counts["testcase"] == 2)
    #expect(reader.counts["error"] == 1)
  }
}
