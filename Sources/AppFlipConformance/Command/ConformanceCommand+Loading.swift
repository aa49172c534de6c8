import Foundation

extension ConformanceCommand {
  /// The parts of the catalog a run loads (the bundled vectors of `profile` unless `--no-bundled`, then `--vectors`)
  /// as they load on a thread of their own, the partner definitions first (`VectorLoader.load(_:displayPaths:stop:each:)`),
  /// so the run starts on the first file while the others load. A signal ends the parts at once with every path
  /// not loaded, since Foundation's parse of a large file cannot be interrupted (the thread stops at its next vector,
  /// or ends with the process), and so does dropping them. A run its caller stopped before it began (or that stops
  /// for `--max-failures`) still loads, so that its reports list its vectors as not run.
  static func loadVectors(
    _ options: CommandLineOptions, profile: VectorFile.Profile, control: RunControl, watch: InterruptionWatch
  ) -> AsyncStream<VectorCatalog> {
    let (bundled, bundledShown) = options.bundled ? VectorLoader.bundled(profile) : ([], [])
    let paths = options.vectors
    let shown = bundledShown + paths.map(ConsoleText.line)
    let (parts, continuation) = AsyncStream.makeStream(of: VectorCatalog.self)
    let dropped = Locked(false)
    continuation.onTermination = { _ in dropped.withLock { $0 = true } }
    let stoppedBefore = control.stopReason != nil
    let stopped: VectorLoader.Stop = {
      dropped.withLock { $0 } || (!stoppedBefore && control.stopReason.flatMap(ExitCode.init(stoppedBy:)) != nil)
    }
    watch.onStop = {
      continuation.yield(VectorCatalog(notLoaded: shown))
      continuation.finish()
    }
    let thread = Thread {
      VectorLoader.load(
        bundled + paths.map(URL.init(fileURLWithPath:)), displayPaths: bundledShown + paths, stop: stopped,
        besideJobs: jobs(options, work: .max)
      ) { continuation.yield($0) }
      continuation.finish()
    }
    thread.stackSize = 8 << 20
    thread.start()
    return parts
  }

  /// `--validate` or `--list` of the loaded catalog: the problems, then each valid vector or their count.
  static func listOrValidate(
    _ loaded: VectorCatalog, setup: SetupProblems, configuration: PartnerConfiguration, options: CommandLineOptions,
    output: Output, control: RunControl
  ) -> ExitCode {
    let catalog = options.run.select(loaded)
    printProblems(setup.problems + catalog.problems.map { ConsoleText.safe($0.description) }, output: output)
    if !loaded.notLoaded.isEmpty, let reason = control.stopReason, let code = ExitCode(stoppedBy: reason) {
      output.err("\(reason): stopped while the vector files loaded.")
      return code
    }
    if control.stopReason == nil, let problem = options.run.selectionProblem(loaded: loaded, selected: catalog) {
      output.err("error: \(ConsoleText.safe(problem))")
      return .usage
    }
    let filesOK = catalog.problems.isEmpty && setup.problems.isEmpty
    guard options.validate else {
      for loaded in catalog.vectors { output.out(listLine(loaded, under: configuration)) }
      return filesOK ? .success : .usage
    }
    // An id a bundled vector has is refused whatever --no-bundled says: it collides once the bundled ones are back.
    let collisions = VectorLoader.bundledCollisions(in: catalog).filter { !catalog.problems.contains($0) }
    for problem in collisions { output.err("error: \(ConsoleText.safe(problem.description))") }
    output.out(
      "\(Count.of(catalog.vectors.count - collisions.count, "vector")) valid, "
        + Count.of(catalog.problems.count + setup.problems.count + collisions.count, "problem"))
    return filesOK && collisions.isEmpty ? .success : .usage
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
