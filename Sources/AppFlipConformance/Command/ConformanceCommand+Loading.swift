import Foundation

extension ConformanceCommand {
  /// The vectors a run loads (the bundled ones of `profile` unless `--no-bundled`, then `--vectors`), on a thread of
  /// its own: a signal ends the wait at once, every path then not loaded, since Foundation's parse of a large file
  /// cannot be interrupted (the thread stops at its next vector, or ends with the process). A run its caller stopped
  /// before it began still loads, so that its reports list its vectors as not run.
  static func loadVectors(
    _ options: CommandLineOptions, profile: VectorFile.Profile, control: RunControl, watch: InterruptionWatch
  ) async -> VectorCatalog {
    let stoppedBefore = control.stopReason != nil
    let stopped: VectorLoader.Stop = { !stoppedBefore && control.stopReason != nil }
    let paths = options.vectorPaths
    let bundled = options.bundled
    let shown = (bundled ? [profile == .app ? "Vectors/corpus" : "Vectors/endpoint"] : []) + paths.map(ConsoleText.line)
    return await withCheckedContinuation { (continuation: CheckedContinuation<VectorCatalog, Never>) in
      let pending = Locked<CheckedContinuation<VectorCatalog, Never>?>(continuation)
      let finish: @Sendable (VectorCatalog) -> Void = { catalog in
        pending.withLock { $0.take() }?.resume(returning: catalog)
      }
      watch.onStop = { finish(VectorCatalog(notLoaded: shown)) }
      let thread = Thread {
        var loaded = bundled ? VectorLoader.loadBundled(profile, stop: stopped) : VectorCatalog()
        loaded.merge(VectorLoader.load(paths.map(URL.init(fileURLWithPath:)), displayPaths: paths, stop: stopped))
        finish(loaded)
      }
      thread.stackSize = 8 << 20
      thread.start()
    }
  }

  /// The most problems printed as the run begins; the reports list every one.
  static let problemsPrinted = 200

  /// Prints each problem of the files the run was given, at most `problemsPrinted`, then how many more there are.
  static func printProblems(_ problems: [String], output: Output) {
    for problem in problems.prefix(problemsPrinted) { output.err("error: \(problem)") }
    if problems.count > problemsPrinted {
      output.err(
        "error: \(Count.of(problems.count - problemsPrinted, "more problem")) not printed; the JUnit and JSON reports "
          + "list every one.")
    }
  }

  /// A "not run" result for each vector file a stopped run left unloaded (`VectorCatalog.notLoaded`).
  static func notLoaded(_ catalog: VectorCatalog, reason: StopReason?) -> [VectorResult] {
    guard let reason else { return [] }
    return catalog.notLoaded.map { file in
      var result = VectorResult(id: file, origin: .vectorFile, file: file, message: "")
      result.status = .skipped
      result.message = "not run: \(reason) while the vector files loaded"
      result.isNotRun = true
      return result
    }
  }
}
