import AppFlipConformance
import Foundation
import Testing

/// Captures what the command prints.
final class CapturedOutput: @unchecked Sendable {
  private let lock = NSLock()
  private var outLines: [String] = []
  private var errLines: [String] = []

  var output: ConformanceCommand.Output {
    ConformanceCommand.Output(
      out: { line in self.lock.withLock { self.outLines.append(line) } },
      err: { line in self.lock.withLock { self.errLines.append(line) } })
  }

  var out: String { lock.withLock { outLines.joined(separator: "\n") } }
  var err: String { lock.withLock { errLines.joined(separator: "\n") } }
}

@Suite("Command line")
struct CommandTests {
  let folder: URL = {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("cli-\(UUID().uuidString)")
    try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
  }()

  func write(_ name: String, _ data: Data) throws -> String {
    let url = folder.appendingPathComponent(name)
    try data.write(to: url)
    return url.path
  }

  func run(_ arguments: [String]) async -> (ConformanceCommand.ExitCode, CapturedOutput) {
    let captured = CapturedOutput()
    let code = await ConformanceCommand.run(arguments, output: captured.output)
    return (code, captured)
  }

  @Test("Exits 0 and writes JUnit when every vector passes")
  func passes() async throws {
    let vectors = try write("ok.json", Fixtures.file([Fixtures.accepted()]))
    let report = folder.appendingPathComponent("r/junit.xml").path
    let (code, output) = await run(["--no-bundled", "--vectors", vectors, "--report", report])
    #expect(code == .success)
    #expect(output.out.contains("1 vector: 1 passed, 0 failed"))
    let reader = try JUnitReader.read(try String(contentsOfFile: report, encoding: .utf8))
    #expect(reader.counts["testcase"] == 1)
  }

  @Test("--list shows what each vector expands to under --config: its link and verdict, or why it is skipped")
  func listShowsExpansion() async throws {
    let config = try write(
      "home.json",
      Data(
        """
        {"clientId": "987654321098-partner.apps.googleusercontent.com",
         "allowedRedirectUris": ["https://oauth-redirect.googleusercontent.com/a/com.google.Chromecast"]}
        """.utf8))
    let (code, output) = await run(["--list", "--config", config])
    #expect(code == .success)
    let lines = output.out.split(separator: "\n").map(String.init)
    let kelvin = try #require(lines.first { $0.hasPrefix("incoming/client-id-kelvin-sign\t") })
    #expect(kelvin.contains("skipped: does not apply to this configuration"), "\(kelvin)")
    let opa = try #require(lines.first { $0.hasPrefix("redirect-uri/allowed/prod-opa\t") })
    #expect(opa.contains("\tignored \""), "\(opa)")
    let mixed = try #require(lines.first { $0.hasPrefix("redirect-uri/case/host-mixed\t") })
    #expect(mixed.contains("Oauth-Redirect.Googleusercontent.Com%2Fa%2Fcom.google.Chromecast"), "\(mixed)")
    #expect(mixed.contains("client_id=987654321098-partner.apps.googleusercontent.com"))
  }

  @Test("Exits 2 on a misspelled field, naming the file, the vector and the field, and still reports the rest")
  func misspelledField() async throws {
    let vectors = try write(
      "bad.json", Fixtures.file([Fixtures.accepted(id: "t/typo", extra: "\"sepc\": [],"), Fixtures.accepted()]))
    let report = folder.appendingPathComponent("junit.xml").path
    let (code, output) = await run(["--no-bundled", "--vectors", vectors, "--report", report])
    #expect(code == .usage)
    #expect(output.err.contains("bad.json"))
    #expect(output.err.contains("\"t/typo\""))
    #expect(output.err.contains("\"sepc\""))
    #expect(output.err.contains("did you mean \"spec\"?"))
    let reader = try JUnitReader.read(try String(contentsOfFile: report, encoding: .utf8))
    #expect(reader.counts["testcase"] == 2)
    #expect(reader.counts["error"] == 1)
  }

  @Test("Exits 1 when a vector fails")
  func fails() async throws {
    let wrong = Fixtures.accepted().replacingOccurrences(of: "\"state\": \"s1\"}", with: "\"state\": \"s2\"}")
    let vectors = try write("wrong.json", Fixtures.file([wrong]))
    let (code, output) = await run([
      "--no-bundled", "--vectors", vectors, "--report", folder.appendingPathComponent("j.xml").path,
    ])
    #expect(code == .failure)
    #expect(output.out.contains("FAIL t/ok"))
    #expect(output.out.contains("expected: \"s2\""))
  }

  @Test(
    "Exits 2 on bad usage, quoting the bad input",
    arguments: [
      (["--filtr", "x"], "'--filtr'; did you mean '--filter'?"),
      (["--timeout", "soon"], "'soon'"),
      (["--report"], "'--report' needs a value"),
      (["--no-bundled"], "'--no-bundled' leaves no vectors"),
      (["--config", "/nonexistent/config.json"], "/nonexistent/config.json"),
    ])
  func badUsage(_ arguments: [String], _ message: String) async {
    let (code, output) = await run(arguments)
    #expect(code == .usage)
    #expect(output.err.contains(message))
  }

  @Test("Filters by id glob and tag, and lists the selection")
  func filters() async throws {
    let vectors = try write(
      "two.json",
      Fixtures.file([Fixtures.accepted(id: "t/one", extra: "\"tags\": [\"x\"],"), Fixtures.accepted(id: "t/two")]))
    let (_, byID) = await run(["--no-bundled", "--vectors", vectors, "--filter", "t/o*", "--list"])
    #expect(byID.out.hasPrefix("t/one\tmust\tx\t-\taccepted \"https://partner.example/appflip?"), "\(byID.out)")
    #expect(!byID.out.contains("t/two"))
    let (_, byTag) = await run(["--no-bundled", "--vectors", vectors, "--tag", "x", "--list"])
    #expect(byTag.out.hasPrefix("t/one\tmust\tx\t-\t") && !byTag.out.contains("t/two"), "\(byTag.out)")
  }

  @Test("Validates vector files without running them")
  func validate() async throws {
    let vectors = try write("ok.json", Fixtures.file([Fixtures.accepted()]))
    let (code, output) = await run(["--no-bundled", "--vectors", vectors, "--validate"])
    #expect(code == .success)
    #expect(output.out == "1 vector valid, 0 problems")
  }

  @Test("Reads a partner configuration file")
  func configuration() async throws {
    let config = try write(
      "config.json", Data(#"{"clientId": "acme-google-client", "universalLink": "https://acme.example/flip"}"#.utf8))
    let vectors = try write("ok.json", Fixtures.file([Fixtures.accepted()]))
    let (code, _) = await run([
      "--no-bundled", "--vectors", vectors, "--config", config, "--report", folder.appendingPathComponent("j.xml").path,
    ])
    #expect(code == .success)
    let typo = try write("typo.json", Data(#"{"clientID": "x"}"#.utf8))
    let (badCode, output) = await run(["--config", typo])
    #expect(badCode == .usage)
    #expect(output.err.contains("did you mean \"clientId\"?"))
  }

  @Test("Reports every vector as not run after an interruption, writes a valid report, and exits 130")
  func interrupted() async throws {
    let vectors = try write("two.json", Fixtures.file([Fixtures.accepted(id: "t/1"), Fixtures.accepted(id: "t/2")]))
    let report = folder.appendingPathComponent("interrupted.xml").path
    let control = RunControl()
    control.stop(.interrupted)
    let captured = CapturedOutput()
    let code = await ConformanceCommand.run(
      ["--no-bundled", "--vectors", vectors, "--report", report], output: captured.output, control: control)
    #expect(code == .interrupted)
    let reader = try JUnitReader.read(try String(contentsOfFile: report, encoding: .utf8))
    #expect(reader.counts["testcase"] == 2)
    #expect(reader.counts["skipped"] == 2)
    #expect(captured.err.contains("interrupted (SIGINT)"))
  }

  @Test("An interrupted run never reads Passed: console, Markdown, JUnit and JSON say it was interrupted and why")
  func interruptedNeverPasses() async throws {
    let vectors = try write("two.json", Fixtures.file([Fixtures.accepted(id: "t/1"), Fixtures.accepted(id: "t/2")]))
    let report = folder.appendingPathComponent("i.xml").path
    let markdown = folder.appendingPathComponent("i.md").path
    let json = folder.appendingPathComponent("i.json").path
    let control = RunControl()
    control.stop(.interrupted)
    let captured = CapturedOutput()
    let code = await ConformanceCommand.run(
      ["--no-bundled", "--vectors", vectors, "--report", report, "--markdown", markdown, "--json", json],
      output: captured.output, control: control)
    #expect(code == .interrupted)
    #expect(captured.out.contains("INTERRUPTED (interrupted (SIGINT)): 2 not run, not a pass"))
    let summary = try String(contentsOfFile: markdown, encoding: .utf8)
    #expect(!summary.contains("Passed"))
    #expect(summary.contains("**Interrupted**: interrupted (SIGINT); 2 vectors not run, so this is not a pass"))
    let xml = try String(contentsOfFile: report, encoding: .utf8)
    #expect(xml.contains(#"<property name="run.interrupted" value="interrupted (SIGINT)"/>"#))
    let document = try JSONResultsReport.read(from: URL(fileURLWithPath: json))
    #expect(document.interrupted == .init(reason: "interrupted (SIGINT)", notRun: 2))
  }

  @Test("Shards, then merges the shard reports into one")
  func shardAndMerge() async throws {
    let vectors = try write(
      "many.json", Fixtures.file((1...12).map { Fixtures.accepted(id: "t/\($0)") }))
    var reports: [String] = []
    for index in 1...3 {
      let report = folder.appendingPathComponent("shard\(index).xml").path
      let (code, _) = await run(["--no-bundled", "--vectors", vectors, "--shard", "\(index)/3", "--report", report])
      #expect(code == .success)
      reports.append(report)
    }
    let merged = folder.appendingPathComponent("merged.xml").path
    let (code, _) = await run(["merge-junit", merged] + reports)
    #expect(code == .success)
    let reader = try JUnitReader.read(try String(contentsOfFile: merged, encoding: .utf8))
    #expect(Set(reader.testcases.compactMap { $0["name"] }) == Set((1...12).map { "t/\($0)" }))
  }

  @Test("Applies waivers: stale fails the run, unmatched is an error, waived failures are skipped")
  func waivers() async throws {
    let wrong = Fixtures.accepted(id: "t/wrong").replacingOccurrences(
      of: "\"state\": \"s1\"}", with: "\"state\": \"s2\"}")
    let vectors = try write("w.json", Fixtures.file([wrong, Fixtures.accepted(id: "t/ok")]))
    let report = folder.appendingPathComponent("w.xml").path
    let waived = try write(
      "waived.json", Data(#"{"schemaVersion": 1, "waivers": [{"id": "t/wrong", "reason": "known"}]}"#.utf8))
    #expect(await run(["--no-bundled", "--vectors", vectors, "--waivers", waived, "--report", report]).0 == .success)
    let stale = try write(
      "stale.json",
      Data(
        #"{"schemaVersion": 1, "waivers": [{"id": "t/ok", "reason": "old"}, {"id": "t/wrong", "reason": "known"}]}"#
          .utf8))
    #expect(await run(["--no-bundled", "--vectors", vectors, "--waivers", stale, "--report", report]).0 == .failure)
    let unmatched = try write(
      "unmatched.json",
      Data(
        #"{"schemaVersion": 1, "waivers": [{"id": "t/gone", "reason": "old"}, {"id": "t/wrong", "reason": "known"}]}"#
          .utf8))
    #expect(await run(["--no-bundled", "--vectors", vectors, "--waivers", unmatched, "--report", report]).0 == .usage)
  }

  @Test("Writes a waiver file from a run and from a JUnit report, which then makes the run pass")
  func adoptWaivers() async throws {
    let wrong = Fixtures.accepted(id: "t/wrong").replacingOccurrences(
      of: "\"state\": \"s1\"}", with: "\"state\": \"s2\"}")
    let vectors = try write("a.json", Fixtures.file([wrong, Fixtures.accepted(id: "t/ok")]))
    let report = folder.appendingPathComponent("a.xml").path
    let fromRun = folder.appendingPathComponent("from-run.json").path
    #expect(
      await run(["--no-bundled", "--vectors", vectors, "--report", report, "--write-waivers", fromRun]).0 == .failure)
    let fromReport = folder.appendingPathComponent("from-report.json").path
    #expect(await run(["--waivers-from", report, "--write-waivers", fromReport]).0 == .success)
    for waivers in [fromRun, fromReport] {
      #expect(try WaiverFile.load(URL(fileURLWithPath: waivers)).waivers.map(\.id) == ["t/wrong"])
      #expect(
        await run(["--no-bundled", "--vectors", vectors, "--waivers", waivers, "--report", report]).0 == .success)
    }
  }

  @Test(
    "Exits 2 naming a selection that matches no vector, instead of passing having tested nothing",
    arguments: [
      (["--filter", "nothing/*"], "--filter 'nothing/*' matches none of the 2 loaded vectors"),
      (["--filter", "t/*", "--filter", "outcome/*"], "--filter 'outcome/*' matches none"),
      (["--tag", "nope"], "--tag 'nope' matches none"),
      (["--level", "may"], "--level may matches none"),
      (["--flag", "leakage"], "--flag 'leakage' matches none"),
      (["--filter", "t/1", "--tag", "x"], "the selection --filter 't/1' --tag 'x' matches none"),
    ])
  func emptySelection(_ selection: [String], _ message: String) async throws {
    let vectors = try write(
      "sel.json",
      Fixtures.file([Fixtures.accepted(id: "t/1"), Fixtures.accepted(id: "t/2", extra: "\"tags\": [\"x\"],")]))
    let report = folder.appendingPathComponent("sel.xml").path
    let (code, output) = await run(["--no-bundled", "--vectors", vectors, "--report", report] + selection)
    #expect(code == .usage)
    #expect(output.err.contains(message))
    #expect(!output.out.contains("passed"))
    let xml = try String(contentsOfFile: report, encoding: .utf8)
    let reader = try JUnitReader.read(xml)
    #expect(reader.counts["testcase"] == 1)
    #expect(reader.counts["error"] == 1)
    #expect(xml.contains("matches none of the 2 loaded vectors"))
  }

  @Test("Exits 2 for a shard that holds none of the selected vectors")
  func emptyShard() async throws {
    let vectors = try write("one.json", Fixtures.file([Fixtures.accepted(id: "t/1")]))
    let report = folder.appendingPathComponent("shard.xml").path
    var codes: [ConformanceCommand.ExitCode] = []
    for index in 1...2 {
      let (code, output) = await run([
        "--no-bundled", "--vectors", vectors, "--shard", "\(index)/2", "--report", report,
      ])
      codes.append(code)
      if code == .usage { #expect(output.err.contains("--shard \(index)/2 holds none of the 1 selected vectors")) }
    }
    #expect(codes.sorted { $0.rawValue < $1.rawValue } == [.success, .usage])
  }

  @Test(
    "Exits 2 on a configuration that would blame the handler, naming the file and field and quoting the value",
    arguments: [
      (
        #"{"allowedRedirectUris": ["https://evil.example/cb"]}"#,
        #"field "allowedRedirectUris[0]": "https://evil.example/cb" is not allowed: it is not one of Google's twelve"#
      ),
      (
        #"{"allowedRedirectUris": ["https://oauth-redirect.googleusercontent.com/a/com.google.OPA/"]}"#,
        #"is a near-miss of "https://oauth-redirect.googleusercontent.com/a/com.google.OPA""#
      ),
      (#"{"allowedRedirectUris": [""]}"#, #"field "allowedRedirectUris[0]": "" is not allowed: it is empty"#),
      (#"{"clientId": ""}"#, #"field "clientId": "" is not allowed: it is empty"#),
      (
        #"{"allowedRedirectUris": ["https://oauth-redirect.googleusercontent.com/a/com.google.OPA", "https://oauth-redirect.googleusercontent.com/a/com.google.OPA"]}"#,
        #"field "allowedRedirectUris[1]""#
          + #": "https://oauth-redirect.googleusercontent.com/a/com.google.OPA" is not allowed: it repeats allowedRedirectUris[0]"#
      ),
      (
        #"{"universalLink": "partner.example/flip"}"#,
        #"field "universalLink": "partner.example/flip" is not allowed: it is not an absolute https URL"#
      ),
      (
        #"{"allowUnlistedRedirectUris": true, "allowedRedirectUris": ["http://new.example/a"]}"#,
        "even an unlisted redirect URI must be"
      ),
    ])
  func badConfiguration(_ json: String, _ message: String) async throws {
    let config = try write("bad-config.json", Data(json.utf8))
    let report = folder.appendingPathComponent("c.xml").path
    let (code, output) = await run(["--config", config, "--report", report])
    #expect(code == .usage)
    #expect(output.err.hasPrefix("error: " + config + ": field \""))
    #expect(output.err.contains(message))
    #expect(output.err.split(separator: "\n").count == 1)
    #expect(!output.out.contains("FAIL"))
  }

  @Test("Runs a URL Google adds later only with allowUnlistedRedirectUris, and every report says it was used")
  func unlistedRedirectURI() async throws {
    let url = "https://oauth-redirect.googleusercontent.com/a/com.google.NewApp"
    let config = try write(
      "later.json", Data(#"{"allowUnlistedRedirectUris": true, "allowedRedirectUris": ["\#(url)"]}"#.utf8))
    let vectors = try write("ok.json", Fixtures.file([Fixtures.accepted()]))
    let report = folder.appendingPathComponent("l.xml").path
    let markdown = folder.appendingPathComponent("l.md").path
    let json = folder.appendingPathComponent("l.json").path
    let (_, output) = await run([
      "--no-bundled", "--vectors", vectors, "--config", config, "--report", report, "--markdown", markdown,
      "--json", json,
    ])
    #expect(output.err.contains("warning: allowUnlistedRedirectUris lets in \"\(url)\""))
    #expect(
      try String(contentsOfFile: report, encoding: .utf8).contains(
        #"<property name="configuration.unlistedRedirectUris" value="\#(url)"/>"#))
    #expect(try String(contentsOfFile: markdown, encoding: .utf8).contains("allowUnlistedRedirectUris: `\(url)`"))
    let document = try JSONResultsReport.read(from: URL(fileURLWithPath: json))
    #expect(document.configuration.allowsUnlistedRedirectURIs)
    #expect(document.configuration.unlistedRedirectURIs == [url])
  }

  @Test("A \"*\" waiver over an implementation that never starts exits 1, the start error in every report")
  func waiverNeverHidesAnError() async throws {
    let vectors = try write("s.json", Fixtures.file([Fixtures.accepted(id: "t/1"), Fixtures.accepted(id: "t/2")]))
    let waivers = try write("all.json", Data(#"{"schemaVersion": 1, "waivers": [{"id": "*", "reason": "all"}]}"#.utf8))
    let report = folder.appendingPathComponent("e.xml").path
    let markdown = folder.appendingPathComponent("e.md").path
    let json = folder.appendingPathComponent("e.json").path
    let (code, output) = await run([
      "--no-bundled", "--vectors", vectors, "--exec", "false", "--waivers", waivers, "--report", report,
      "--markdown", markdown, "--json", json, "--timeout", "120",
    ])
    #expect(code == .failure)
    #expect(output.out.contains("2 vectors: 0 passed, 0 failed, 0 warnings, 0 skipped, 2 errors"))
    #expect(output.out.contains("did not start"))
    let xml = try String(contentsOfFile: report, encoding: .utf8)
    #expect(try JUnitReader.read(xml).counts["error"] == 2)
    #expect(xml.contains("did not start"))
    let summary = try String(contentsOfFile: markdown, encoding: .utf8)
    #expect(!summary.contains("Passed"))
    #expect(summary.contains("did not start"))
    let document = try JSONResultsReport.read(from: URL(fileURLWithPath: json))
    #expect(document.results.map(\.status) == [.error, .error])
    #expect(
      document.results.allSatisfy { $0.message.contains("did not start") }, "\(document.results.map(\.message))")
  }

  @Test(
    "Updates a waiver file from a run or its report: keeps the edited reason and issue, drops the stale waiver, adds new ones"
  )
  func updateWaivers() async throws {
    func wrong(_ id: String) -> String {
      Fixtures.accepted(id: id).replacingOccurrences(of: "\"state\": \"s1\"}", with: "\"state\": \"s2\"}")
    }
    let vectors = try write("u.json", Fixtures.file([wrong("t/wrong"), wrong("t/new"), Fixtures.accepted(id: "t/ok")]))
    let old = try write(
      "old.json",
      Data(
        #"{"schemaVersion": 1, "waivers": [{"id": "t/wrong", "reason": "Edited by hand.", "issue": "https://t.example/1"}, {"id": "t/ok", "reason": "Fixed since."}]}"#
          .utf8))
    let updated = folder.appendingPathComponent("new.json").path
    let report = folder.appendingPathComponent("u.xml").path
    let (code, output) = await run([
      "--no-bundled", "--vectors", vectors, "--waivers", old, "--write-waivers", updated, "--report", report,
    ])
    #expect(code == .failure)
    #expect(output.out.contains("STALE t/ok"))
    #expect(output.out.contains("kept 1, narrowed 0, dropped 1 stale (\"t/ok\"), added 1"))
    let file = try WaiverFile.load(URL(fileURLWithPath: updated))
    #expect(file.waivers.map(\.id) == ["t/wrong", "t/new"])
    #expect(file.waivers[0] == Waiver(id: "t/wrong", reason: "Edited by hand.", issue: "https://t.example/1"))
    // The same update from the run's JUnit report, where the waived failure shows as skipped and the stale one as a failure.
    let fromReport = folder.appendingPathComponent("from-report.json").path
    #expect(await run(["--waivers-from", report, "--waivers", old, "--write-waivers", fromReport]).0 == .success)
    let reread = try WaiverFile.load(URL(fileURLWithPath: fromReport))
    #expect(reread.waivers.map(\.id) == ["t/wrong", "t/new"])
    #expect(reread.waivers[0] == file.waivers[0])
    #expect(
      await run(["--no-bundled", "--vectors", vectors, "--waivers", updated, "--report", report]).0 == .success)
  }

  @Test("Stops after --max-failures, reporting the rest as not run")
  func maxFailures() async throws {
    let wrong = (1...4).map {
      Fixtures.accepted(id: "t/\($0)").replacingOccurrences(of: "\"state\": \"s1\"}", with: "\"state\": \"s2\"}")
    }
    let vectors = try write("failing.json", Fixtures.file(wrong))
    let report = folder.appendingPathComponent("max.xml").path
    let (code, output) = await run(["--no-bundled", "--vectors", vectors, "--max-failures", "2", "--report", report])
    #expect(code == .failure)
    #expect(output.out.contains("4 vectors: 0 passed, 2 failed, 0 warnings, 2 skipped, 0 errors"))
    let reader = try JUnitReader.read(try String(contentsOfFile: report, encoding: .utf8))
    #expect(reader.counts["skipped"] == 2)
    #expect(output.out.contains("not run: --max-failures 2 reached"))
  }

  @Test("Uses colour only on a terminal and never with NO_COLOR")
  func colour() {
    #expect(ConformanceCommand.Output.wantsColour(terminal: true, environment: [:]))
    #expect(!ConformanceCommand.Output.wantsColour(terminal: false, environment: [:]))
    #expect(!ConformanceCommand.Output.wantsColour(terminal: true, environment: ["NO_COLOR": "1"]))
    #expect(ConformanceCommand.Output.wantsColour(terminal: true, environment: ["NO_COLOR": ""]))
    let results = [VectorResult(id: "t/x", area: "t", file: "f", level: .must, status: .failed)]
    #expect(ConsoleReport.render(results, colour: true).contains("\u{1B}[1;31mFAIL\u{1B}[0m"))
    #expect(!ConsoleReport.render(results, colour: false).contains("\u{1B}["))
  }

  @Test("Shows progress per vector when asked, and only the summary line with --quiet")
  func progressAndQuiet() async throws {
    let vectors = try write("p.json", Fixtures.file([Fixtures.accepted(id: "t/1"), Fixtures.accepted(id: "t/2")]))
    let report = folder.appendingPathComponent("p.xml").path
    let captured = CapturedOutput()
    let progress = CapturedOutput()
    var output = captured.output
    output.progress = progress.output.out
    #expect(
      await ConformanceCommand.run(["--no-bundled", "--vectors", vectors, "--report", report], output: output)
        == .success)
    // With --jobs (the machine's cores by default) vectors finish in any order; the count still runs 1, 2.
    let lines = progress.out.split(separator: "\n").filter { !$0.isEmpty }.map(String.init)
    #expect(lines.map { $0.prefix(5) } == ["[1/2]", "[2/2]"], "\(lines)")
    #expect(Set(lines.map { $0.dropFirst(6) }) == ["t/1", "t/2"], "\(lines)")
    let (code, quiet) = await run(["--no-bundled", "--vectors", vectors, "--report", report, "--quiet"])
    #expect(code == .success)
    #expect(quiet.out == "2 vectors: 2 passed, 0 failed, 0 warnings, 0 skipped, 0 errors")
  }
}
