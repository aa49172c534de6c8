import AppFlipConformance
import Foundation

/// The share of a command run's wall time in which only its coordinating thread works (issue 25): the bundled corpus
/// copied to about 10 000 vectors in files, run by `appflip-conformance` itself (load, plan, run, reports), and the
/// `--jobs` speed-up that share implies by Amdahl's law.
///
/// The serial time is what passes before the first vector's result (listing the files, the first file decoded, the
/// journal, the first adapter started; the first vector's own run is counted in it, tens of µs in-process, the
/// implementation's start over `--exec`) and after the last one (the waiver pass, the evidence, the console report,
/// the reports written). In between the other files load beside the run, which takes each one as it is decoded, and
/// the workers never wait on the coordinating thread: each takes the next vector and reports its own result.
enum SerialShare {
  /// Copies of the bundled corpus: about 10 000 vectors.
  static let targetVectors = 10_000

  /// Prints the figure in-process and, when `exec` is given, over `--exec`.
  static func print(_ options: BenchOptions, exec: String?) async {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "appflip-bench-serial-\(ProcessInfo.processInfo.processIdentifier)")
    defer { try? FileManager.default.removeItem(at: folder) }
    let count: Int
    do {
      count = try writeCopies(into: folder)
    } catch {
      Swift.print(Format.row("serial share", "cannot write the vector copies: \(error)"))
      return
    }
    var modes: [(String, [String])] = [("in-process", [])]
    if let exec { modes.append(("--exec appflip_handler.py", ["--exec", exec])) }
    for (label, arguments) in modes {
      var runs: [Int: [Run]] = [:]
      var startUps: [Double] = []
      for _ in 0..<max(3, options.rounds) {
        if let exec = arguments.last, arguments.first == "--exec" { startUps.append(startUp(exec)) }
        for jobs in [1, 2] {
          let run = await Run.measure(arguments + ["--jobs", "\(jobs)"], vectors: folder)
          runs[jobs, default: []].append(run)
        }
      }
      let one = runs[1] ?? []
      let two = runs[2] ?? []
      let share = Format.median(one.map(\.share))
      let measured = Format.median(zip(one, two).map { $0.wall / $1.wall })
      let amdahl = [2, 4, 8, 16].map { String(format: "%d: %.2f×", $0, 1 / (share + (1 - share) / Double($0))) }
      Swift.print(
        Format.row(
          "serial share, \(label)",
          String(format: "%.1f %%", share * 100)
            + " of a --jobs 1 run of \(Format.grouped(count)) vectors (\(Format.seconds(Format.median(one.map(\.wall))))"
            + ": \(Format.seconds(Format.median(one.map(\.before)))) before the first result, "
            + "\(Format.seconds(Format.median(one.map(\.after)))) after the last); "
            + String(format: "%.1f %% in --jobs 2", Format.median(two.map(\.share)) * 100)))
      Swift.print(
        Format.row(
          "",
          "Amdahl's --jobs speed-up from it: " + amdahl.joined(separator: ", ")
            + String(format: "; measured --jobs 2 / --jobs 1: %.2f× (median of %d)", measured, one.count)))
      if !startUps.isEmpty {
        let startUp = Format.median(startUps)
        let without = Format.median(one.map { max(0, $0.before - startUp + $0.after) / $0.wall })
        Swift.print(
          Format.row(
            "",
            String(format: "without the handler's own start-up: %.1f %%", without * 100)
              + " (\(Format.seconds(startUp)) before the first result are the handler starting: spawn to its ready"
              + " answer, measured alone, median)"))
      }
    }
    Swift.print("")
  }

  /// Writes the bundled corpus's files into `folder` as many times as make about `targetVectors`, each copy's ids
  /// prefixed `cN-`; the number of vectors written.
  static func writeCopies(into folder: URL) throws -> Int {
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let files = try FileManager.default.contentsOfDirectory(
      at: VectorLoader.bundledDirectory, includingPropertiesForKeys: nil
    ).filter { $0.pathExtension == "json" }
    let texts = try files.map { (name: $0.lastPathComponent, text: try String(contentsOf: $0, encoding: .utf8)) }
    let perCopy = texts.map { $0.text.components(separatedBy: "\"id\": \"").count - 1 }.reduce(0, +)
    let copies = max(1, (targetVectors + perCopy / 2) / max(perCopy, 1))
    for copy in 0..<copies {
      for (name, text) in texts {
        let renamed = text.replacingOccurrences(of: "\"id\": \"", with: "\"id\": \"c\(copy)-")
        try Data(renamed.utf8).write(to: folder.appendingPathComponent("c\(copy)-\(name)"))
      }
    }
    return perCopy * copies
  }

  /// The seconds the handler `exec` takes to start as the subprocess adapter starts it: spawned, sent `start`, until
  /// its `ready` answer (before the first result of an `--exec` run, the implementation's time, not the harness's).
  static func startUp(_ exec: String) -> Double {
    let adapter = SubprocessAdapter(command: exec, timeout: 10)
    defer { adapter.shutdown() }
    let start = DispatchTime.now().uptimeNanoseconds
    _ = adapter.acceptsConfiguration
    return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
  }

  /// One command run: its wall time, and the seconds before its first result and after its last.
  struct Run {
    var wall: Double
    var before: Double
    var after: Double
    var share: Double { (before + after) / wall }

    /// Runs `appflip-conformance --no-bundled --vectors FOLDER` with `arguments`, its reports in a temporary folder.
    static func measure(_ arguments: [String], vectors: URL) async -> Run {
      let reports = vectors.deletingLastPathComponent().appendingPathComponent(vectors.lastPathComponent + "-reports")
      defer { try? FileManager.default.removeItem(at: reports) }
      let results = Locked<(first: UInt64, last: UInt64)>((0, 0))
      let output = ConformanceCommand.Output(
        out: { _ in }, err: { _ in },
        progress: { line in
          guard !line.isEmpty else { return }  // the line cleared after the run
          let now = DispatchTime.now().uptimeNanoseconds
          results.withLock { $0 = ($0.first == 0 ? now : $0.first, now) }
        })
      let start = DispatchTime.now().uptimeNanoseconds
      _ = await ConformanceCommand.run(
        ["--no-bundled", "--vectors", vectors.path, "--report", reports.appendingPathComponent("junit.xml").path]
          + arguments, output: output)
      let end = DispatchTime.now().uptimeNanoseconds
      var (first, last) = results.withLock { $0 }
      if first == 0 { (first, last) = (end, end) }  // no result at all: every second counts as serial
      return Run(
        wall: Double(end - start) / 1e9, before: Double(first - start) / 1e9, after: Double(end - last) / 1e9)
    }
  }
}
