import Foundation

/// The `appflip-conformance` command: loads vectors, runs them, prints the summary, writes reports, and returns the exit code.
public enum ConformanceCommand {
  /// Exit codes (README "Exit codes").
  public enum ExitCode: Int32, Sendable {
    /// Every selected vector passed (warnings allowed unless strict).
    case success = 0
    /// A vector failed or could not be judged, or a waiver is stale.
    case failure = 1
    /// Bad usage, a bad configuration, vector or waiver file, a waiver that matches no vector, or a selection that
    /// matches no vector (`EmptySelection`).
    case usage = 2
    /// A report could not be written (the others still were); the error names it.
    case reportFailed = 3
    /// The run was interrupted (SIGINT); the reports list what ran.
    case interrupted = 130
    /// The run was terminated (SIGTERM); the reports list what ran.
    case terminated = 143
  }

  /// Where the command writes: standard output and standard error by default.
  public struct Output: Sendable {
    /// Writes a line to standard output.
    public var out: @Sendable (String) -> Void
    /// Writes a line to standard error.
    public var err: @Sendable (String) -> Void
    /// Rewrites the progress line on a terminal; `nil` shows no progress.
    public var progress: (@Sendable (String) -> Void)?
    /// Whether the console report may use colour.
    public var colour: Bool

    /// Creates an output.
    public init(
      out: @escaping @Sendable (String) -> Void, err: @escaping @Sendable (String) -> Void,
      progress: (@Sendable (String) -> Void)? = nil, colour: Bool = false
    ) {
      self.out = out
      self.err = err
      self.progress = progress
      self.colour = colour
    }

    /// The process's standard output and error; progress and colour only on a terminal, colour never with `NO_COLOR`.
    public static var standard: Output {
      let terminalOut = isatty(STDOUT_FILENO) == 1
      let terminalErr = isatty(STDERR_FILENO) == 1
      let colour = wantsColour(terminal: terminalOut, environment: ProcessInfo.processInfo.environment)
      var progress: (@Sendable (String) -> Void)?
      if terminalErr {
        progress = { line in ConsoleStream.err.write("\r\u{1B}[2K" + line) }
      }
      return Output(
        out: { ConsoleStream.out.write($0 + "\n") },
        err: { ConsoleStream.err.write(ConsoleText.safe($0) + "\n") },
        progress: progress,
        colour: colour)
    }

    /// Colour only on a terminal, and never when `NO_COLOR` is set to anything but the empty string (no-color.org).
    public static func wantsColour(terminal: Bool, environment: [String: String]) -> Bool {
      terminal && (environment["NO_COLOR"] ?? "").isEmpty
    }
  }

  /// Runs the command with these arguments (without the program name); `control` lets a caller stop the run, and
  /// defaults to one that stops after `--max-failures`.
  public static func run(
    _ arguments: [String], output: Output = .standard, control: RunControl? = nil
  ) async -> ExitCode {
    signal(SIGPIPE, SIG_IGN)
    if arguments.first == "fuzz" {
      return await FuzzCommand.run(Array(arguments.dropFirst()), output: output, control: control ?? RunControl())
    }
    let options: CommandLineOptions
    do {
      options = try CommandLineOptions.parse(arguments)
    } catch {
      output.err("error: \(ConsoleText.safe(error.description))")
      return .usage
    }
    if options.help {
      output.out(CommandLineOptions.usage)
      return .success
    }
    if options.version {
      output.out("\(SuiteInfo.name) \(SuiteInfo.version)")
      return .success
    }
    if let merged = options.mergeOutput {
      return mergeJUnit(into: merged, from: options.mergeInputs, output: output)
    }
    if let report = options.waiversFromPath, let target = options.writeWaiversPath {
      return writeWaivers(fromReport: report, updating: options.waiversPath, to: target, output: output)
    }
    do {
      return try await runVectors(
        options, output: output, control: control ?? RunControl(maxFailures: options.maxFailures))
    } catch {
      output.err("error: \(ConsoleText.safe(String(describing: error)))")
      return .usage
    }
  }

  /// What a vector expands to under a configuration, for `--list`: its first link and verdict, or why it is skipped.
  static func expansion(of vector: Vector, profile: VectorFile.Profile, under configuration: PartnerConfiguration)
    -> String
  {
    let configuration = vector.configuration?.applied(to: configuration) ?? configuration
    guard let first = vector.steps.first else { return "" }
    switch RenderedStep.render(first, with: configuration, profile: profile) {
    case .failure(let reason):
      return "skipped: " + reason.message
    case .success(let step):
      let more = vector.steps.count > 1 ? " (+\(vector.steps.count - 1) steps)" : ""
      return "\(step.expect.verdict.rawValue) \(Quoted.string(step.link))\(more)"
    }
  }

  /// Loads, selects, runs, applies waivers, reports; a bad configuration or waiver file still writes every report.
  static func runVectors(_ options: CommandLineOptions, output: Output, control: RunControl) async throws -> ExitCode {
    var adapters = try makeAdapters(options)
    var adapter = adapters[0]
    let interruption = InterruptionWatch(control: control)
    defer { interruption.stop() }
    var setup = SetupProblems()
    let configuration =
      setup.load(.configurationFile, options.configPath) { try PartnerConfiguration.load($0) } ?? .default
    let waivers = setup.load(.waiverFile, options.waiversPath) { try WaiverFile.load($0) }

    var loaded = options.bundled ? VectorLoader.loadBundled(adapter.profile) : VectorCatalog()
    loaded.merge(
      VectorLoader.load(options.vectorPaths.map(URL.init(fileURLWithPath:)), displayPaths: options.vectorPaths))
    var catalog = options.filter.apply(to: loaded)
    if let shard = options.shard { catalog = shard.apply(to: catalog) }
    for problem in setup.problems + catalog.problems.map({ ConsoleText.safe($0.description) }) {
      output.err("error: \(problem)")
    }
    if let empty = EmptySelection.check(filter: options.filter, shard: options.shard, loaded: loaded, selected: catalog)
    {
      output.err("error: \(ConsoleText.safe(empty.description))")
      if !options.list && !options.validate {
        // The reports say so too, so a CI job that reads them sees why nothing ran.
        let result = VectorResult(id: "selection", origin: .selection, file: "", message: empty.description)
        let reportErrors = writeReports(
          setup.results + [result], options: options, implementation: adapter.name, configuration: configuration,
          startedAt: Date())
        for failure in reportErrors { output.err("error: \(ConsoleText.safe(failure.description))") }
      }
      return .usage
    }
    let filesOK = catalog.problems.isEmpty && setup.problems.isEmpty

    if options.validate {
      output.out("\(catalog.vectors.count) vectors valid, \(catalog.problems.count + setup.problems.count) problems")
      return filesOK ? .success : .usage
    }
    if options.list {
      for loaded in catalog.vectors {
        let vector = loaded.vector
        output.out(
          ConsoleText.line(
            "\(vector.id)\t\(vector.level.rawValue)\t\((vector.tags + vector.flags).joined(separator: ","))\t"
              + expansion(of: vector, profile: loaded.profile, under: configuration)))
      }
      return filesOK ? .success : .usage
    }
    if let reason = setup.stopReason { control.stop(reason) }

    // The endpoint's preflight (AF-EP-5): an endpoint runs on one adapter, which it proves has a working session.
    let preflight = await preflight(adapter, options: options, configuration: configuration)
    adapter = preflight.adapter
    adapters[0] = adapter
    let runner = ParallelRunner(
      runners: adapters.map {
        Runner(
          adapter: $0, configuration: configuration, timeout: options.timeout, strict: options.strict,
          platform: options.platform)
      })
    if !options.quiet {
      output.out("\(SuiteInfo.name) \(SuiteInfo.version): \(catalog.vectors.count) vectors against \(adapter.name)")
    }
    let unlisted = configuration.unlistedRedirectURIs
    if !unlisted.isEmpty {
      output.err(
        "warning: allowUnlistedRedirectUris lets in \(unlisted.map { "\"\($0)\"" }.joined(separator: ", ")), "
          + "not among Google's App Flip redirect URLs; the reports say so.")
    }
    let startedAt = Date()
    let total = catalog.problems.count + catalog.vectors.count
    let progress = ProgressCounter()
    let journal = RunJournal(
      catalog, setup: setup.results, path: options.exec == nil && options.endpoint == nil ? options.reportPath : nil,
      implementation: adapter.name)
    let stop = preflight.stop
    if let stop {
      output.err(
        "error: the preflight request got no code, so the endpoint's refusals would prove nothing: "
          + ConsoleText.safe(stop))
    }
    let running = Task {
      if let stop { return preflightStopped(catalog, diagnosis: stop) }
      return await runner.run(catalog, control: control, onStart: journal.starting) { result in
        journal.finished(result)
        guard !options.quiet, let show = output.progress else { return }
        show("[\(progress.next())/\(total)] \(ConsoleText.line(result.id))")
      }
    }
    interruption.onStop = { running.cancel() }
    var results = setup.results + (await running.value)
    if !options.quiet, let show = output.progress { show("") }

    let raw = results
    var waiversOK = true
    if let waivers, let path = options.waiversPath {
      results = waivers.apply(to: results, loadedIDs: loaded.vectors.map(\.vector.id), file: path)
      let waiverErrors = results.filter { $0.origin == .waiver }
      waiversOK = waiverErrors.isEmpty
      if options.quiet { for result in waiverErrors { output.err("error: \(ConsoleText.safe(result.message))") } }
    }
    let stopReason = control.stopReason?.description
    let console = ConsoleReport.render(results, colour: output.colour, stopReason: stopReason).dropLast()
    output.out(options.quiet ? String(console.split(separator: "\n").last ?? "") : String(console))

    let implementation = adapters.lazy.compactMap(\.implementation).first ?? adapter.name
    for adapter in adapters { adapter.shutdown() }
    let reportErrors = writeReports(
      results, options: options, implementation: implementation, configuration: configuration, startedAt: startedAt,
      stopReason: stopReason)
    for failure in reportErrors { output.err("error: \(ConsoleText.safe(failure.description))") }
    if !options.quiet, reportErrors.isEmpty {
      output.out("JUnit report: \(ConsoleText.line(options.reportPath))")
    }
    if let path = options.writeWaiversPath {
      try writeWaivers(raw, updating: waivers, to: path, date: startedAt, output: output)
    }
    if let reason = control.stopReason, let code = ExitCode(stoppedBy: reason) {
      output.err("\(reason): the reports list what ran; the rest is marked not run.")
      return code
    }
    if !reportErrors.isEmpty { return .reportFailed }
    if !filesOK || !waiversOK { return .usage }
    return RunSummary(results).isSuccess ? .success : .failure
  }

  /// Writes JUnit, and the Markdown and JSON reports when asked for, each on its own: one that cannot be written
  /// does not stop the others. Returns a sentence for each report that could not be written.
  static func writeReports(
    _ results: [VectorResult], options: CommandLineOptions, implementation: String,
    configuration: PartnerConfiguration, startedAt: Date, stopReason: String? = nil
  ) -> [CommandError] {
    var failed: [CommandError] = []
    func attempt(_ body: () throws(CommandError) -> Void) {
      do { try body() } catch { failed.append(error) }
    }
    var properties: [(String, String)] = []
    if let stopReason { properties.append(("run.interrupted", stopReason)) }
    let unlisted = configuration.unlistedRedirectURIs
    if !unlisted.isEmpty { properties.append(("configuration.unlistedRedirectUris", unlisted.joined(separator: " "))) }
    attempt { () throws(CommandError) in
      try write(
        Data(JUnitReport.render(results, implementation: implementation, properties: properties).utf8),
        to: options.reportPath, what: "the JUnit report")
    }
    if let path = options.markdownPath {
      let markdown = MarkdownReport.render(
        results, implementation: implementation, configuration: configuration, strict: options.strict,
        stopReason: stopReason)
      attempt { () throws(CommandError) in
        try write(
          Data(markdown.utf8), to: path, what: "the Markdown summary",
          mode: MarkdownReport.appends(to: path) ? .append : .replace)
      }
    }
    if let path = options.jsonPath {
      let document = JSONResultsReport.Document(
        results: results, implementation: .init(name: implementation), configuration: configuration,
        startedAt: startedAt, duration: Date().timeIntervalSince(startedAt), stopReason: stopReason)
      attempt { () throws(CommandError) in
        guard let data = try? JSONResultsReport.encode(document) else {
          throw .cannotWrite(what: "the JSON results", path: path, reason: "they cannot be encoded")
        }
        try write(data, to: path, what: "the JSON results")
      }
    }
    return failed
  }

  /// Merges shard JUnit files into one.
  static func mergeJUnit(into target: String, from inputs: [String], output: Output) -> ExitCode {
    do {
      let xml = try JUnitMerge.merge(inputs.map { URL(fileURLWithPath: $0) })
      try write(Data(xml.utf8), to: target, what: "the merged JUnit report")
      output.out("Merged \(inputs.count) reports into \(target)")
      return .success
    } catch {
      output.err("error: \(ConsoleText.safe(String(describing: error)))")
      return .usage
    }
  }

  /// Writes the waivers a run needs: with `--waivers`, that file updated (`WaiverFile.updated(with:date:)`), else a new
  /// file adopting every failure; `results` are the run's, before waivers were applied.
  static func writeWaivers(
    _ results: [VectorResult], updating waivers: WaiverFile?, to path: String, date: Date, output: Output
  ) throws {
    let day = String(ISO8601DateFormatter().string(from: date).prefix(10))
    let errors = results.filter { $0.status == .error }.count
    if let waivers {
      let update = waivers.updated(with: results, date: day)
      try write(update.file.encoded(), to: path, what: "the waiver file")
      output.out("Waivers updated (\(update.summary)): \(path)")
    } else {
      let file = WaiverFile.adopting(results, date: day)
      try write(file.encoded(), to: path, what: "the waiver file")
      output.out("Waivers for \(file.waivers.count) vectors: \(path)")
    }
    if errors > 0 {
      output.err("note: \(errors) errors got no waiver: a waiver never hides an error; fix them first.")
    }
  }

  /// Writes a waiver file for every test case a JUnit report shows as failed (errors and stale waivers get none), or,
  /// with `--waivers`, updates that file from the report.
  static func writeWaivers(
    fromReport report: String, updating waiversPath: String?, to target: String, output: Output
  ) -> ExitCode {
    do {
      let results = try JUnitMerge.failedTestCases(in: URL(fileURLWithPath: report))
      let waivers = try waiversPath.map { try WaiverFile.load(URL(fileURLWithPath: $0)) }
      try writeWaivers(results, updating: waivers, to: target, date: Date(), output: output)
      return .success
    } catch {
      output.err("error: \(ConsoleText.safe(String(describing: error)))")
      return .usage
    }
  }

  /// Writes a file through the library's one writer (atomic for a regular file, written through for a FIFO or
  /// device), with an error that names the path.
  static func write(
    _ data: Data, to path: String, what: String, mode: ReportFile.Mode = .replace
  ) throws(CommandError) {
    do {
      try ReportFile.write(data, to: path, mode: mode)
    } catch {
      throw .cannotWrite(what: what, path: path, reason: error.reason)
    }
  }
}

/// A report or file the command cannot write.
public enum CommandError: Error, Sendable, Hashable, CustomStringConvertible {
  /// Writing failed.
  case cannotWrite(what: String, path: String, reason: String)

  /// One sentence that quotes the path and says what to do.
  public var description: String {
    switch self {
    case .cannotWrite(let what, let path, let reason):
      "cannot write \(what) to \(Quoted.capped(path)): \(reason); choose another path or fix the folder."
    }
  }
}

/// Counts results for the progress line.
private final class ProgressCounter: @unchecked Sendable {
  private let lock = NSLock()
  private var count = 0

  func next() -> Int {
    lock.withLock {
      count += 1
      return count
    }
  }
}
