import AppFlipConformance
import Foundation
import Testing

@Suite("Waivers")
struct WaiverTests {
  static let results = [
    VectorResult(id: "a/fails", area: "a", file: "f", level: .must, status: .failed),
    VectorResult(id: "a/warns", area: "a", file: "f", level: .must, status: .warning),
    VectorResult(id: "b/passes", area: "b", file: "f", level: .must, status: .passed),
    VectorResult(id: "b/other", area: "b", file: "f", level: .must, status: .passed),
  ]
  static let loaded = results.map(\.id)

  @Test("Shows a waived failure as skipped with its reason and issue")
  func waivedFailure() {
    let file = WaiverFile(waivers: [Waiver(id: "a/*", reason: "Known; fix in 2.3.", issue: "https://t.example/1")])
    let applied = file.apply(to: Self.results, loadedIDs: Self.loaded, file: "w.json")
    #expect(applied.map(\.status) == [.skipped, .skipped, .passed, .passed])
    #expect(applied[0].message == "waived: Known; fix in 2.3. (https://t.example/1)")
  }

  @Test("Marks a stale waiver, whose vector now passes, as its own status that fails the run")
  func staleWaiver() {
    let applied = WaiverFile(waivers: [Waiver(id: "b/passes", reason: "r")]).apply(
      to: Self.results, loadedIDs: Self.loaded, file: "w.json")
    #expect(applied[2].status == .stale)
    #expect(applied[2].message.contains("stale waiver"))
    #expect(RunSummary(applied).isSuccess == false)
  }

  @Test("Reports a waiver that matches no vector as an error")
  func unmatchedWaiver() {
    let applied = WaiverFile(waivers: [Waiver(id: "c/*", reason: "r")]).apply(
      to: Self.results, loadedIDs: Self.loaded, file: "w.json")
    #expect(applied.count == 5)
    #expect(applied.last?.status == .error)
    #expect(applied.last?.message == "w.json: waiver \"c/*\" matches no vector; fix the id or remove the waiver.")
  }

  @Test("Does not call a waiver unmatched when its vector is only filtered out")
  func filteredIsNotUnmatched() {
    let applied = WaiverFile(waivers: [Waiver(id: "z/1", reason: "r")]).apply(
      to: Self.results, loadedIDs: Self.loaded + ["z/1"], file: "w.json")
    #expect(applied.count == 4)
  }

  @Test("Writes waivers for every result that did not pass, and reads them back strictly")
  func adoptAndLoad() throws {
    let file = WaiverFile.adopting(Self.results, date: "2026-11-22")
    #expect(file.waivers.map(\.id) == ["a/fails", "a/warns"])
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("waivers-\(UUID().uuidString).json")
    defer { try? FileManager.default.removeItem(at: url) }
    try ReportFile.json(file).write(to: url)
    #expect(try WaiverFile.load(url) == file)
    try Data(#"{"schemaVersion": 1, "waivers": [{"id": "a", "reason": "r", "isue": "x"}]}"#.utf8).write(to: url)
    #expect(throws: VectorError.self) { try WaiverFile.load(url) }
    do {
      _ = try WaiverFile.load(url)
    } catch {
      #expect(error.description.contains("did you mean \"issue\"?"))
    }
  }

  @Test("An adopted waiver names the rule each finding broke at the level that decided, not the vector's first one")
  func adoptedReason() throws {
    func finding(_ rule: String, _ level: Level, _ field: String) -> Finding {
      Finding(rule: rule, level: level, field: field, expected: "e", actual: "a", message: "m")
    }
    let code = VectorResult(
      id: "endpoint/client-exact/trailing-space", area: "a", file: "f", level: .must, status: .failed,
      findings: [
        finding("AF-EP-3", .should, "reply.error"), finding("AF-EP-4", .must, "reply.code"),
        finding("AF-EP-5", .may, "reply.state"),
      ])
    let page = VectorResult(
      id: "endpoint/client-exact/empty", area: "a", file: "f", level: .must, status: .warning,
      findings: [finding("AF-EP-3", .should, "opened")])
    let file = WaiverFile.adopting([code, page], date: "2026-11-26")
    #expect(
      file.waivers.map(\.reason) == [
        "Adopted on 2026-11-26: failed: AF-EP-4 (MUST) at reply.code.",
        "Adopted on 2026-11-26: warning: AF-EP-3 (SHOULD) at opened.",
      ])

    let url = FileManager.default.temporaryDirectory.appendingPathComponent("waivers-\(UUID().uuidString).json")
    defer { try? FileManager.default.removeItem(at: url) }
    let (_, note) = try RunReports.writeWaivers([code, page], updating: nil, to: url.path, date: Date())
    #expect(note?.contains("1 of the new waivers accept failures") == true, "\(String(describing: note))")
    #expect(note?.contains("\"endpoint/client-exact/trailing-space\"") == true)
    #expect(note?.contains("endpoint/client-exact/empty") == false)
    let (_, none) = try RunReports.writeWaivers([page], updating: nil, to: url.path, date: Date())
    #expect(none == nil)
  }

  @Test("Never hides an error: an errored vector under a waiver stays an error with its message")
  func errorsStayErrors() {
    let started = VectorResult(
      id: "a/errs", area: "a", file: "f", level: .must, status: .error, message: "did not start: exited with status 1")
    let problem = VectorResult(
      id: "v.json", area: "vector-files", file: "v.json", level: .must, status: .error, message: "v.json: not JSON")
    let applied = WaiverFile(waivers: [Waiver(id: "*", reason: "all")]).apply(
      to: [started, problem], loadedIDs: ["a/errs"], file: "w.json")
    #expect(applied.map(\.status) == [.error, .error])
    #expect(applied[0].message.hasPrefix("did not start: exited with status 1"))
    #expect(applied[0].message.contains("a waiver never hides an error"))
    #expect(!RunSummary(applied).isSuccess)
  }

  @Test("Writes adopted ids escaped, so an id with * or ? matches only itself, and writes no waiver for an error")
  func adoptedIDsAreEscaped() {
    let results = [
      VectorResult(id: "*", area: "a", file: "f", level: .must, status: .failed),
      VectorResult(id: "a?b\\c", area: "a", file: "f", level: .must, status: .warning),
      VectorResult(id: "a/errs", area: "a", file: "f", level: .must, status: .error),
    ]
    let file = WaiverFile.adopting(results, date: "2026-11-23")
    #expect(file.waivers.map(\.id) == ["\\*", "a\\?b\\\\c"])
    #expect(file.waivers[0].matches("*"))
    #expect(!file.waivers[0].matches("a/fails"))
    #expect(file.waivers[1].matches("a?b\\c"))
    #expect(!file.waivers[1].matches("axb\\c"))
  }

  @Test("Reads a backslash in a glob as an escape: \\* and \\? are literal, a trailing backslash is itself")
  func globEscapes() {
    #expect(VectorFilter.glob("a/\\*", matches: "a/*"))
    #expect(!VectorFilter.glob("a/\\*", matches: "a/b"))
    #expect(VectorFilter.glob("a/\\?*", matches: "a/?x"))
    #expect(!VectorFilter.glob("a/\\?*", matches: "a/xx"))
    #expect(VectorFilter.glob("a\\", matches: "a\\"))
    #expect(VectorFilter.glob("redirect-uri/*", matches: "redirect-uri/case/host"))
    // No bracket expressions: `[` is literal, escaped or not.
    #expect(VectorFilter.glob("a[b]*", matches: "a[b]c"))
    #expect(!VectorFilter.glob("a[b]", matches: "ab"))
    #expect(VectorFilter.glob("a\\[b", matches: "a[b"))
    #expect(VectorFilter.glob("a\\\\[b]", matches: "a\\[b]"))
    // A pattern's characters match their bytes: not a Unicode-equivalent form (ids are ASCII, so `?` is one byte).
    #expect(VectorFilter.glob("caf\u{E9}*", matches: "caf\u{E9}/x"))
    #expect(!VectorFilter.glob("caf\u{E9}*", matches: "cafe\u{301}/x"))
    #expect(VectorFilter.glob("a?c", matches: "a.c"))
  }

  @Test(
    "Updates a waiver file: keeps needed waivers with their edited reason and issue, drops stale ones, adds new ones")
  func update() {
    let old = WaiverFile(waivers: [
      Waiver(id: "a/fails", reason: "Edited: host compare folds case.", issue: "https://t.example/7"),
      Waiver(id: "b/passes", reason: "Fixed since."),
      Waiver(id: "b/*", reason: "Glob over a fixed and a failing vector.", issue: "https://t.example/8"),
      Waiver(id: "z/not-selected", reason: "Not run this time."),
    ])
    let results = Self.results + [VectorResult(id: "b/still", area: "b", file: "f", level: .must, status: .failed)]
    let update = old.updated(with: results, date: "2026-11-23")
    #expect(update.file.waivers[0] == old.waivers[0])
    #expect(update.dropped == [old.waivers[1]])
    #expect(update.narrowed == [old.waivers[2]])
    #expect(
      update.file.waivers[1]
        == Waiver(id: "b/still", reason: "Glob over a fixed and a failing vector.", issue: "https://t.example/8"))
    #expect(update.file.waivers[2] == old.waivers[3])
    #expect(update.added.map(\.id) == ["a/warns"])
    #expect(update.file.waivers.map(\.id) == ["a/fails", "b/still", "z/not-selected", "a/warns"])
    let reapplied = update.file.apply(to: results, loadedIDs: results.map(\.id) + ["z/not-selected"], file: "w.json")
    #expect(RunSummary(reapplied).isSuccess)
  }
}

@Suite("Shards")
struct ShardTests {
  @Test("Covers every vector exactly once across shards 1…n", arguments: [1, 2, 3, 5, 8])
  func partition(_ count: Int) {
    let ids = VectorLoader.loadBundled().vectors.map(\.vector.id)
    let shards = (1...count).map { VectorShard(index: $0, count: count)! }
    for id in ids {
      #expect(shards.filter { $0.contains(id) }.count == 1, "\(id)")
    }
    if count > 1 {
      #expect(shards.allSatisfy { shard in ids.contains(where: shard.contains) })
    }
  }

  @Test("Parses i/n and refuses anything else", arguments: ["0/3", "4/3", "1/0", "x/2", "1", "1/2/3"])
  func refuses(_ text: String) {
    #expect(VectorShard(text) == nil)
  }

  @Test("Parses a valid shard")
  func parses() {
    #expect(VectorShard("2/5") == VectorShard(index: 2, count: 5))
  }
}

@Suite("Run control")
struct RunControlTests {
  @Test("Stops after --max-failures and reports the rest as not run")
  func maxFailures() async {
    let failing = ClosureHandler { _, _ in nil }
    let catalog = Fixtures.catalog([
      Fixtures.accepted(id: "t/1"), Fixtures.accepted(id: "t/2"), Fixtures.accepted(id: "t/3"),
    ])
    let results = await Runner(adapter: InProcessAdapter(failing)).run(catalog, control: RunControl(maxFailures: 2))
    #expect(results.map(\.status) == [.failed, .failed, .skipped])
    #expect(results[2].message == "not run: --max-failures 2 reached")
  }

  @Test("Stops when asked, keeping every vector in the results")
  func interrupted() async {
    let control = RunControl()
    let stopping = ClosureHandler { link, authorizer in
      control.stop(.interrupted)
      return try await ReferenceHandlerAdapter().handle(link, authorizer: authorizer)
    }
    let catalog = Fixtures.catalog([Fixtures.accepted(id: "t/1"), Fixtures.accepted(id: "t/2")])
    let results = await Runner(adapter: InProcessAdapter(stopping)).run(catalog, control: control)
    #expect(results.map(\.status) == [.passed, .skipped])
    #expect(results[1].message == "not run: interrupted (SIGINT)")
  }
}

@Suite("JUnit merge")
struct JUnitMergeTests {
  func write(_ results: [VectorResult], _ name: String, in folder: URL) throws -> URL {
    let url = folder.appendingPathComponent(name)
    try JUnitReport.write(results, implementation: "impl", to: url)
    return url
  }

  @Test("Merges shard reports into one file with counts recomputed")
  func merges() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("merge-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: folder) }
    let all = JUnitReportTests.results
    let first = try write(Array(all.prefix(2)), "1.xml", in: folder)
    let second = try write(Array(all.dropFirst(2)), "2.xml", in: folder)
    let merged = try JUnitMerge.merge([first, second])
    let reader = try JUnitReader.read(merged)
    let direct = try JUnitReader.read(JUnitReport.render(all, implementation: "impl"))
    #expect(reader.counts == direct.counts)
    #expect(reader.root["tests"] == "5")
    #expect(reader.root["failures"] == "1")
    #expect(reader.testcases.map { $0["name"] } == direct.testcases.map { $0["name"] })
    #expect(reader.text.contains("\\u{0}\\u{1B}\\u{FFFE}"))
  }

  @Test("Writes a stale waiver as failure type stale-waiver, counted as a failure, and adopts no waiver from it")
  func staleInJUnit() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("stale-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: folder) }
    let results = [
      VectorResult(id: "t/fixed", area: "t", file: "f", level: .must, status: .stale, message: "stale waiver: x"),
      VectorResult(id: "t/broken", area: "t", file: "f", level: .must, status: .failed, message: "m"),
    ]
    let url = try write(results, "stale.xml", in: folder)
    let xml = try String(contentsOf: url, encoding: .utf8)
    #expect(xml.contains(#"<failure type="stale-waiver" message="stale waiver: x">"#))
    #expect(try JUnitReader.read(xml).root["failures"] == "2")
    let read = try JUnitMerge.failedTestCases(in: url)
    #expect(read.map(\.status) == [.stale, .failed])
    #expect(WaiverFile.adopting(read, date: "2026-11-23").waivers.map(\.id) == ["t/broken"])
  }

  @Test("Merges the shards of a real run: every test case as written, the suites' counts as unsharded")
  func mergesRealShards() async throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("merge-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: folder) }
    let adapter = InProcessAdapter(name: "reference") { ReferenceHandlerAdapter(configuration: $0) }
    let results = await Runner(adapter: adapter).run(VectorLoader.loadBundled())
    #expect(results.count > 300)
    let shards = try (0..<3).map { shard in
      try write(results.enumerated().filter { $0.offset % 3 == shard }.map(\.element), "\(shard).xml", in: folder)
    }
    let merged = try JUnitMerge.merge(shards)
    let direct = JUnitReport.render(results, implementation: "impl")
    let (mergedReader, directReader) = (try JUnitReader.read(merged), try JUnitReader.read(direct))
    #expect(mergedReader.counts == directReader.counts)
    let counts = { (reader: JUnitReader) in
      reader.suites.map { suite in
        ["name", "tests", "failures", "errors", "skipped"].map { suite[$0] ?? "-" }.joined(separator: " ")
      }.sorted()
    }
    #expect(counts(mergedReader) == counts(directReader))
    #expect(mergedReader.root["tests"] == String(results.count))
    for result in results.prefix(50) {
      let element = JUnitReport.testcase(result)
      #expect(merged.contains(element), "\(result.id) is not copied as written")
    }
  }

  @Test("Merges a report shaped by another tool: a testsuite root, single quotes, CDATA, comments and references")
  func mergesOtherTools() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("merge-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: folder) }
    let other = folder.appendingPathComponent("other.xml")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    try Data(
      """
      \u{FEFF}<?xml version='1.0' encoding='utf-8'?>
      <!-- written by another tool -->
      <testsuite name='pytest' tests='9' errors='0' failures='0' skipped='0' time='1.5' hostname="h">
        <properties><property name='python' value='3.12'/></properties>
        <testcase classname='tests.test_a' name='test_&lt;one&gt;' time='0.25'/>
        <testcase classname="tests.test_a" name="test_two" time="0.5">
          <failure message='assert 1 == 2&#10;second line' type="AssertionError"><![CDATA[x < y && "z"]]></failure>
          <system-out><![CDATA[printed <stuff>]]></system-out>
        </testcase>
        <testcase classname="tests.test_a" name="test_three" time="0.75"><skipped message="later &amp; elsewhere"/></testcase>
        <?pi ignored?>
      </testsuite>
      """.utf8
    ).write(to: other)
    let ours = try write(JUnitReportTests.results, "ours.xml", in: folder)
    let merged = try JUnitMerge.merge([ours, other])
    let reader = try JUnitReader.read(merged)
    #expect(reader.root["tests"] == "8")
    #expect(reader.root["failures"] == "2")
    let pytest = try #require(reader.suites.first { $0["name"] == "pytest" })
    #expect(pytest["tests"] == "3")
    #expect(pytest["failures"] == "1")
    #expect(pytest["skipped"] == "1")
    #expect(pytest["time"] == "1.500")
    #expect(pytest["hostname"] == "h")
    #expect(reader.testcases.contains { $0["name"] == "test_<one>" })
    #expect(merged.contains("<![CDATA[x < y && \"z\"]]>"))
    #expect(merged.contains("<property name='python' value='3.12'/>"))
    let failed = try JUnitMerge.failedTestCases(in: other)
    #expect(failed.map(\.id) == ["test_two"])
    #expect(failed.first?.message == "assert 1 == 2\nsecond line")
  }

  @Test("Reads the failures of a report written before the per-vector properties were dropped")
  func readsOldReports() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("old-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: folder) }
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let old = folder.appendingPathComponent("old.xml")
    try Data(
      """
      <?xml version="1.0" encoding="UTF-8"?>
      <testsuites name="appflip-conformance" tests="2" failures="1" errors="0" time="0.002">
        <testsuite name="t" tests="2" failures="1" errors="0" skipped="1" time="0.002" timestamp="2026-11-01T00:00:00">
          <properties>
            <property name="suite.version" value="0.9.0"/>
            <property name="t/broken.spec" value="RFC 6749"/>
            <property name="t/broken.status" value="failed"/>
            <property name="t/waived.status" value="skipped"/>
          </properties>
          <testcase classname="appflip.t" name="t/broken" time="0.001">
            <failure type="AF-RE-2" message="AF-RE-2 reply.state">diff</failure>
            <system-out>level: must</system-out>
          </testcase>
          <testcase classname="appflip.t" name="t/waived" time="0.001">
            <skipped message="waived: known"/>
          </testcase>
        </testsuite>
      </testsuites>
      """.utf8
    ).write(to: old)
    let read = try JUnitMerge.failedTestCases(in: old)
    #expect(read.map(\.id) == ["t/broken", "t/waived"])
    #expect(read.map(\.status) == [.failed, .failed])
    #expect(read.first?.message == "AF-RE-2 reply.state")
  }

  @Test("Refuses with a sentence a file that is not UTF-8, has a DOCTYPE, nests too deep or ends early")
  func refusesBadFiles() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("bad-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: folder) }
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let cases: [(String, Data, String)] = [
      ("latin1.xml", Data([0x3C, 0x61, 0xE9, 0x2F, 0x3E]), "it is not UTF-8 text"),
      ("doctype.xml", Data("<!DOCTYPE x [<!ENTITY a \"b\">]><testsuites/>".utf8), "it has a DOCTYPE"),
      (
        "deep.xml", Data((String(repeating: "<a>", count: 100_000) + String(repeating: "</a>", count: 100_000)).utf8),
        "deeper than 64 levels"
      ),
      ("short.xml", Data("<testsuites>\n  <testsuite name=\"x\">".utf8), "not well-formed XML near line 2"),
      ("mismatch.xml", Data("<testsuites></testsuite>".utf8), "not well-formed XML near line 1, column 13"),
      ("entity.xml", Data("<testsuites>&nbsp;</testsuites>".utf8), "not well-formed XML"),
      ("root.xml", Data("<html/>".utf8), "the root element is <html>"),
      ("two.xml", Data("<testsuites/><testsuites/>".utf8), "not well-formed XML"),
    ]
    for (name, data, words) in cases {
      let url = folder.appendingPathComponent(name)
      try data.write(to: url)
      do {
        _ = try JUnitMerge.merge([url])
        Issue.record("\(name) was merged")
      } catch {
        #expect(error.description.contains(words), "\(name): \(error.description)")
        #expect(
          error.description.hasPrefix(url.path + ": cannot be read as a JUnit report ("),
          "\(name): \(error.description)")
      }
    }
  }

  @Test("Refuses to merge the same shard twice")
  func duplicate() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("merge-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = try write(JUnitReportTests.results, "1.xml", in: folder)
    #expect(throws: JUnitMerge.MergeError.self) { try JUnitMerge.merge([file, file]) }
  }
}
