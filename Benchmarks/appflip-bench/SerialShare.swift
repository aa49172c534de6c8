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
///
/// Over `--exec` the implementation starts while the files load and stops after the last result; that is its own
/// time, in parallel across workers, so the figure is also printed for the coordinating thread alone (issue 25's
/// definition), with the handler's start and exit, measured alone, taken out.
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
      var lifetimes: [Lifetime] = []
      for _ in 0..<max(3, options.rounds) {
        if let exec = arguments.last, arguments.first == "--exec" { lifetimes.append(Lifetime.measure(exec)) }
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
      if !lifetimes.isEmpty {
        // The handler's own start and exit are not the coordinating thread's: each worker's implementation starts
        // and stops beside the others (and its start beside the loading), so by Amdahl's law they are parallel work.
        let start = Format.median(lifetimes.map(\.start))
        let exit = Format.median(lifetimes.map(\.exit))
        let coordinating = Format.median(one.map { (max(0, $0.before - start) + max(0, $0.after - exit)) / $0.wall })
        Swift.print(
          Format.row(
            "",
            String(format: "only the coordinating thread: %.1f %%", coordinating * 100)
              + " (the handler's own start, \(Format.seconds(start)) from spawn to its ready answer, and exit,"
              + " \(Format.seconds(exit)) from stop to its end, measured alone, medians, taken out)"))
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

  /// How long the handler `exec` takes to start and to stop, alone, as the subprocess adapter starts and stops it:
  /// the implementation's time at either end of an `--exec` run, not the coordinating thread's.
  struct Lifetime {
    /// Seconds from spawn, through `start`, to its `ready` answer.
    var start: Double
    /// Seconds from `stop` (and its closed stdin) until it exited.
    var exit: Double

    static func measure(_ exec: String) -> Lifetime {
      let adapter = SubprocessAdapter(command: exec, timeout: 10)
      let spawn = DispatchTime.now().uptimeNanoseconds
      _ = adapter.acceptsConfiguration
      let ready = DispatchTime.now().uptimeNanoseconds
      adapter.shutdown()
      let exited = DispatchTime.now().uptimeNanoseconds
      return Lifetime(start: Double(ready - spawn) / 1e9, exit: Double(exited - ready) / 1e9)
    }
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
