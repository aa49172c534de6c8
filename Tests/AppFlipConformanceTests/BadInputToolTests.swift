import Foundation
import Testing

@testable import AppFlipConformance

/// Issue 28 beyond the run's own files: appflip-lint's inputs, a binary copied without its resource bundle, and the
/// summaries that keep a huge run's console small.
@Suite("BadInput: appflip-lint, a copied binary and huge runs")
struct BadInputToolTests {
  /// The sentence `CorpusLint.load` throws for a scratch checkout changed by `breaking`.
  func loadError(_ breaking: (ScratchCorpus) throws -> Void) throws -> String {
    let scratch = try ScratchCorpus()
    defer { scratch.remove() }
    try breaking(scratch)
    do {
      _ = try scratch.lint()
      return ""
    } catch {
      return String(describing: error)
    }
  }

  @Test("appflip-lint refuses a duplicate key in Vectors/manifest.json, naming the key and line")
  func manifestDuplicateKey() throws {
    let said = try loadError { scratch in
      let url = scratch.root.appendingPathComponent("Vectors/manifest.json")
      var text = try String(contentsOf: url, encoding: .utf8)
      text = text.replacingOccurrences(
        of: "\"schemaVersion\" : 1", with: "\"schemaVersion\" : 1, \"schemaVersion\" : 1")
      try text.write(to: url, atomically: true, encoding: .utf8)
    }
    #expect(said.contains("Vectors/manifest.json: line") && said.contains("\"schemaVersion\" appears twice"), "\(said)")
  }

  @Test("appflip-lint refuses a missing Vectors/flags.json, a missing RULES.md and a manifest that is not JSON")
  func missingFiles() throws {
    let flags = try loadError {
      try FileManager.default.removeItem(at: $0.root.appendingPathComponent("Vectors/flags.json"))
    }
    #expect(flags.contains("Vectors/flags.json: cannot be read (no such file or directory)"), "\(flags)")
    let rules = try loadError { try FileManager.default.removeItem(at: $0.root.appendingPathComponent("RULES.md")) }
    #expect(rules.contains("RULES.md: cannot be read (no such file or directory)"), "\(rules)")
    let manifest = try loadError {
      try Data("<manifest/>".utf8).write(to: $0.root.appendingPathComponent("Vectors/manifest.json"))
    }
    #expect(manifest.contains("Vectors/manifest.json: line 1, column 1: not valid JSON"), "\(manifest)")
    let fifo = try loadError { scratch in
      let path = scratch.root.appendingPathComponent("RULES.md").path
      try FileManager.default.removeItem(atPath: path)
      #expect(mkfifo(path, 0o644) == 0)
    }
    #expect(fifo.contains("RULES.md: cannot be read (it is a named pipe (FIFO), not a regular file)"), "\(fifo)")
    for said in [flags, rules, manifest, fifo] {
      for word in BadInputTests.neverShown { #expect(!said.contains(word), "\(said)") }
    }
  }

  @Test("A binary copied without its resource bundle runs with --no-bundled and never dies of a trap")
  func copiedBinary() async throws {
    let binary = try #require(SignalCases.executable, "appflip-conformance is built with the tests")
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("appflip-copy-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let copy = folder.appendingPathComponent("appflip-conformance")
    try FileManager.default.copyItem(at: binary, to: copy)
    try BadInputTests.vectorFile().write(to: folder.appendingPathComponent("ok.json"))
    for arguments in [["--no-bundled", "--vectors", "ok.json"], ["--validate"]] {
      let report = folder.appendingPathComponent("r.xml").path
      let (code, said, signalled) = try await offCooperativePool {
        try OptionTableTests.run(copy, arguments + ["--report", report], in: folder)
      }
      // Found beside the package's sources, or missing with a sentence: never a trap (SIGILL) in Bundle.module.
      #expect(!signalled, "\(arguments) ended by signal \(code)")
      #expect(code == 0 || said.contains("copied without its resource bundle"), "\(arguments): \(said)")
    }
  }

  @Test("A stopped run of 3 000 vectors says 'not run' in one line, not one per vector")
  func notRunSummary() async throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("appflip-notrun-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let vectors = folder.appendingPathComponent("many.json")
    try BadInputTests.vectorFile((0..<3_000).map { BadInputTests.vector("n/\($0)") }).write(to: vectors)
    let control = RunControl()
    control.stop(.terminated)
    let captured = CapturedOutput()
    let code = await ConformanceCommand.run(
      ["--no-bundled", "--vectors", vectors.path, "--report", folder.appendingPathComponent("r.xml").path],
      output: captured.output, control: control)
    #expect(code == .terminated)
    #expect(captured.out.contains("SKIP 3000 vectors not run: terminated (SIGTERM)"))
    #expect(captured.out.utf8.count < 2_000, "\(captured.out.utf8.count) bytes of console")
  }

  @Test("The console lists 200 failing vectors at most and counts the rest; every report lists them all")
  func failuresSummarized() {
    let results = (0..<500).map {
      VectorResult(id: "f/\($0)", area: "f", file: "f.json", level: .must, status: .failed, message: "broken")
    }
    let console = ConsoleReport.render(results)
    #expect(console.components(separatedBy: "FAIL f/").count - 1 == 200)
    #expect(console.contains("… 300 more vectors that did not pass, not listed here"))
  }

  @Test("A capped quote states the length of the value itself, however its characters are escaped")
  func quotedLength() {
    for value in [
      String(repeating: "a", count: 300), String(repeating: "é\u{1}", count: 150), String(repeating: "😀", count: 300),
    ] {
      let quote = Quoted.string(value)
      #expect(quote.contains("[300 characters, "), "\(quote.prefix(80))")
      #expect(quote.count < 4 * Quoted.limit + 60, "a quote of \(quote.count) characters")
    }
    #expect(Quoted.string(String(repeating: "a", count: 240)) == "\"" + String(repeating: "a", count: 240) + "\"")
  }
}
