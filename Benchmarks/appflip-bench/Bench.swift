import AppFlipConformance
import Foundation

/// The benchmark: prints figures, never asserts them.
enum Bench {
  /// Runs the command; the exit code.
  static func main() async -> Int32 {
    let options = BenchOptions.table.parseCommandLine(BenchOptions()) { BenchOptions.usage }
    let catalog = VectorLoader.loadBundled()
    guard catalog.problems.isEmpty, !catalog.vectors.isEmpty else {
      for problem in catalog.problems { FileHandle.standardError.write(Data("error: \(problem)\n".utf8)) }
      FileHandle.standardError.write(Data("error: the bundled vectors did not load cleanly\n".utf8))
      return 1
    }
    let steps = catalog.vectors.map(\.vector.steps.count).reduce(0, +)
    print("appflip-bench \(SuiteInfo.version)")
    print("machine: \(Machine.line)")
    if !Machine.isRelease {
      print("warning: a debug build; quote only figures from `swift run -c release appflip-bench`")
    }
    print(
      "\(catalog.vectors.count) bundled vectors (\(steps) links); median of \(options.rounds) rounds of ≥ \(Format.seconds(options.roundSeconds)), [fastest–slowest round] in µs/vector"
    )
    print("")
    if options.figures.contains(.inprocess) { await inProcess(catalog, options) }
    if options.figures.contains(.subprocess) { await subprocess(catalog, options) }
    if options.figures.contains(.transport) {
      if let python = Executables.python() {
        await Transport.print(options, python: python)
      } else {
        print(Format.row("--exec transport", "not available (no python3 on PATH)"))
      }
      print("")
    }
    if options.figures.contains(.fuzz) {
      await FuzzJobs.print(options)
      print("")
    }
    if options.figures.contains(.serial) {
      let python = Executables.python()
      let script = Executables.pythonExample()
      let exec = python.flatMap { python in
        script.map { "\(Executables.shellQuoted(python)) \(Executables.shellQuoted($0))" }
      }
      await SerialShare.print(options, exec: exec)
    }
    if options.figures.contains(.junit) {
      junit(options)
      await HarnessShare.print(options)
    }
    if options.figures.contains(.swifttest) { PartnerSwiftTest.print(options) }
    if options.figures.contains(.scale) {
      Scale.print([1_000, 10_000, 100_000], mergeCases: 100_000)
    } else if options.figures.contains(.merge) {
      Scale.print([], mergeCases: 100_000)
    }
    return 0
  }

  /// (a) the harness against the reference handler, (b) the bare loop, and their ratio.
  static func inProcess(_ catalog: VectorCatalog, _ options: BenchOptions) async {
    let adapter = InProcessAdapter(name: "AppFlipReferenceHandler") { ReferenceHandlerAdapter(configuration: $0) }
    let runner = Runner(adapter: adapter)
    let check = RunSummary(await runner.run(catalog))
    // A near-miss the sample configuration cannot make is skipped with that reason; anything else is a problem.
    if !check.isSuccess || check.warnings > 0 {
      print("warning: the reference handler did not pass every vector: \(check.line)")
    }
    let harness = await Measurement.run(rounds: options.rounds, roundSeconds: options.roundSeconds) {
      _ = await runner.run(catalog)
    }
    print(Format.line("in-process: Runner + reference handler", harness, vectors: catalog.vectors.count))

    let bare = BareLoop(catalog: catalog, adapter: adapter)
    var checksum = 0
    let loop = await Measurement.run(rounds: options.rounds, roundSeconds: options.roundSeconds) {
      checksum &+= await bare.pass()
    }
    print(Format.line("bare loop: handler.handle on the same links", loop, vectors: bare.vectors.count))
    let harnessPerVector = harness.median / Double(catalog.vectors.count)
    let barePerVector = loop.median / Double(bare.vectors.count)
    let overhead = Format.microseconds(harnessPerVector - barePerVector)
    print(
      Format.row(
        "harness / bare",
        String(format: "%.2f", harnessPerVector / barePerVector)
          + " (limit 1.5, goal 1.2, set when the handler took 11 µs); the harness adds \(overhead)/vector")
    )
    let cpu = (harness.cpuMedian / Double(catalog.vectors.count), loop.cpuMedian / Double(bare.vectors.count))
    print(
      Format.row(
        "harness / bare, CPU time",
        String(format: "%.2f", cpu.0 / cpu.1)
          + " (\(Format.microseconds(cpu.0)) against \(Format.microseconds(cpu.1)) of process CPU"
          + " per vector; steadier than wall time under load)"))
    if checksum == 0 { print("warning: the bare loop opened nothing; its figure is meaningless") }
    if options.breakdown {
      print("")
      await Breakdown.print(
        catalog: catalog, runner: harness, bare: loop, bareVectors: bare.vectors.count, options: options)
    }
    print("")
  }

  /// (c) the subprocess adapter with the Python example handler: `--jobs 1` and `--jobs 2`.
  static func subprocess(_ catalog: VectorCatalog, _ options: BenchOptions) async {
    let label = "subprocess: appflip_handler.py"
    guard let python = Executables.python() else {
      print(Format.row(label, "not available (no python3 on PATH)"))
      return
    }
    guard let script = Executables.pythonExample() else {
      print(Format.row(label, "not available (Examples/python/appflip_handler.py not found)"))
      return
    }
    let command = "\(Executables.shellQuoted(python)) \(Executables.shellQuoted(script))"
    let adapter = SubprocessAdapter(command: command, timeout: 10)
    let runner = Runner(adapter: adapter)
    // Probe once: leave out the vectors the adapter skips (interleaved ones), stop if nothing runs.
    let probe = await runner.run(catalog)
    let ran = Set(probe.filter { $0.status != .skipped }.map(\.id))
    let errors = probe.filter { $0.status == .error }
    if ran.isEmpty || errors.count == ran.count {
      let reason = errors.first.map { "\($0.id): \($0.message)" } ?? "every vector was skipped"
      print(Format.row(label, "not available (\(reason.split(separator: "\n").first ?? ""))"))
      return
    }
    let selected = VectorCatalog(vectors: catalog.vectors.filter { ran.contains($0.vector.id) })
    let skipped = catalog.vectors.count - selected.vectors.count
    let summary = RunSummary(probe.filter { ran.contains($0.id) })
    let name = adapter.implementation ?? "?"
    print(Format.row("", "\(name): \(selected.vectors.count) run, \(skipped) skipped by the adapter"))
    print(Format.row("", summary.line))
    adapter.shutdown()
    await JobsComparison.print(selected, command: command, label: label, options)
  }

  /// (d) rendering and writing a JUnit report of many results.
  static func junit(_ options: BenchOptions) {
    let results = SyntheticResults.make(count: options.junitResults)
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "appflip-bench-\(ProcessInfo.processInfo.processIdentifier)")
    defer { try? FileManager.default.removeItem(at: folder) }
    let url = folder.appendingPathComponent("junit.xml")
    var render: [Double] = []
    var write: [Double] = []
    var cpu: [Double] = []
    var size = 0
    do {
      for _ in 0..<options.junitRounds {
        // What the command does: the report rendered to bytes and written atomically.
        var xml = Data()
        let before = CPUTime.now()
        render.append(Stopwatch.seconds { xml = JUnitReport.data(results, implementation: "synthetic") })
        size = xml.count
        write.append(try Stopwatch.seconds { try ReportFile.write(xml, to: url.path) })
        cpu.append(CPUTime.now() - before)
      }
    } catch {
      print(Format.row("JUnit", "cannot write \(url.path): \(error.localizedDescription)"))
      return
    }
    let total = zip(render, write).map { $0 + $1 }
    let sizeMB = String(format: "%.1f MB", Double(size) / 1e6)
    print(
      Format.row(
        "JUnit: \(Format.grouped(options.junitResults)) results, render + write",
        "\(Format.seconds(Format.median(total))) wall (limit 0.5 s; render \(Format.seconds(Format.median(render))) + write \(Format.seconds(Format.median(write)))), \(Format.seconds(Format.median(cpu))) CPU, \(sizeMB); median of \(options.junitRounds)"
      ))
  }
}
