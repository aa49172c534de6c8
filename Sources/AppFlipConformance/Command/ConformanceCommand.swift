import Foundation

/// The `appflip-conformance` command: loads vectors, runs them, prints the summary, writes reports, and returns the exit code.
public enum ConformanceCommand {
  /// Exit codes (README "Exit codes").
  public enum ExitCode: Int32, Sendable {
    /// Every selected vector passed (warnings allowed unless strict).
    case success = 0
    /// A vector failed or could not be judged, or a waiver is stale.
    case failure = 1
    /// Bad usage, a bad configuration, vector or waiver file, or a waiver that matches no vector.
    case usage = 2
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
        progress = { line in FileHandle.standardError.write(Data(("\r\u{1B}[2K" + line).utf8)) }
      }
      return Output(
        out: { print($0) },
        err: { FileHandle.standardError.write(Data(($0 + "\n").utf8)) },
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
    if arguments.first == "fuzz" {
      return await FuzzCommand.run(Array(arguments.dropFirst()), output: output, control: control ?? RunControl())
    }
    let options: CommandLineOptions
    do {
      options = try CommandLineOptions.parse(arguments)
    } catch {
      output.err("error: \(error)")
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
      return writeWaivers(fromReport: report, to: target, output: output)
    }
    do {
      return try await runVectors(
        options, output: output, control: control ?? RunControl(maxFailures: options.maxFailures))
    } catch {
      output.err("error: \(error)")
      return .usage
    }
  }

  /// What a vector expands to under a configuration, for `--list`: its first link and verdict, or why it is skipped.
  static func expansion(of vector: Vector, under configuration: PartnerConfiguration) -> String {
    let configuration = vector.configuration?.applied(to: configuration) ?? configuration
    guard let first = vector.steps.first else { return "" }
    switch RenderedStep.render(first, with: configuration) {
    case .failure(let reason):
      return "skipped: " + reason.message
    case .success(let step):
      let more = vector.steps.count > 1 ? " (+\(vector.steps.count - 1) steps)" : ""
      return "\(step.expect.verdict.rawValue) \(Quoted.string(step.link))\(more)"
    }
  }

  /// Loads, selects, runs, applies waivers, reports.
  static func runVectors(_ options: CommandLineOptions, output: Output, control: RunControl) async throws -> ExitCode {
    let configuration =
      try options.configPath.map { try PartnerConfiguration.load(URL(fileURLWithPath: $0)) } ?? .default
    let waivers = try options.waiversPath.map { try WaiverFile.load(URL(fileURLWithPath: $0)) }
    var adapter = try makeAdapter(options)

    var loaded = options.bundled ? VectorLoader.loadBundled(adapter.profile) : VectorCatalog()
    for path in options.vectorPaths {
      loaded.merge(VectorLoader.load(URL(fileURLWithPath: path), displayPath: path))
    }
    var catalog = options.filter.apply(to: loaded)
    if let shard = options.shard { catalog = shard.apply(to: catalog) }
    for problem in catalog.problems { output.err("error: \(problem)") }
    let filesOK = catalog.problems.isEmpty

    if options.validate {
      output.out("\(catalog.vectors.count) vectors valid, \(catalog.problems.count) problems")
      return filesOK ? .success : .usage
    }
    if options.list {
      for loaded in catalog.vectors {
        let vector = loaded.vector
        output.out(
          "\(vector.id)\t\(vector.level.rawValue)\t\((vector.tags + vector.flags).joined(separator: ","))\t"
            + expansion(of: vector, under: configuration))
      }
      return filesOK ? .success : .usage
    }

    let preflight = await preflight(adapter, options: options, configuration: configuration)
    adapter = preflight.adapter
    let runner = Runner(
      adapter: adapter, configuration: configuration, timeout: options.timeout, strict: options.strict,
      platform: options.platform)
    if !options.quiet {
      output.out("\(SuiteInfo.name) \(SuiteInfo.version): \(catalog.vectors.count) vectors against \(adapter.name)")
    }
    let startedAt = Date()
    let total = catalog.problems.count + catalog.vectors.count
    let progress = ProgressCounter()
    let interruption = InterruptionWatch(control: control)
    var results: [VectorResult]
    if let diagnosis = preflight.stop {
      output.err("error: the preflight request got no code, so the endpoint's refusals would prove nothing: \(diagnosis)")
      results = preflightStopped(catalog, diagnosis: diagnosis)
    } else {
      results = await runner.run(catalog, control: control) { result in
        guard !options.quiet, let show = output.progress else { return }
        show("[\(progress.next())/\(total)] \(result.id)")
      }
    }
    interruption.stop()
    if !options.quiet, let show = output.progress { show("") }

    var waiversOK = true
    if let waivers, let path = options.waiversPath {
      results = waivers.apply(to: results, loadedIDs: loaded.vectors.map(\.vector.id), file: path)
      waiversOK = !results.contains { $0.area == "waivers" }
    }
    let console = ConsoleReport.render(results, colour: output.colour).dropLast()
    output.out(options.quiet ? String(console.split(separator: "\n").last ?? "") : String(console))

    let name = (adapter as? SubprocessAdapter)?.implementation ?? adapter.name
    (adapter as? SubprocessAdapter)?.shutdown()
    try writeReports(
      results, options: options, implementation: name, configuration: configuration, startedAt: startedAt)
    if !options.quiet {
      output.out("JUnit report: \(options.reportPath)")
    }
    if let path = options.writeWaiversPath {
      let date = ISO8601DateFormatter().string(from: startedAt).prefix(10)
      try write(WaiverFile.adopting(results, date: String(date)).encoded(), to: path, what: "the waiver file")
      output.out(
        "Waivers for \(results.filter { [.failed, .warning, .error].contains($0.status) }.count) vectors: \(path)")
    }
    if let reason = control.stopReason, reason.hasPrefix("interrupted") || reason.hasPrefix("terminated") {
      output.err("\(reason): the reports list what ran; the rest is marked not run.")
      return reason.contains("SIGTERM") ? .terminated : .interrupted
    }
    if !filesOK || !waiversOK { return .usage }
    return RunSummary(results).isSuccess ? .success : .failure
  }

  /// Writes JUnit, and the Markdown and JSON reports when asked for.
  static func writeReports(
    _ results: [VectorResult], options: CommandLineOptions, implementation: String,
    configuration: PartnerConfiguration, startedAt: Date
  ) throws {
    try write(
      Data(JUnitReport.render(results, implementation: implementation).utf8), to: options.reportPath,
      what: "the JUnit report")
    if let path = options.markdownPath {
      let markdown = MarkdownReport.render(
        results, implementation: implementation, configuration: configuration, strict: options.strict)
      try write(Data(markdown.utf8), to: path, what: "the Markdown summary")
    }
    if let path = options.jsonPath {
      let document = JSONResultsReport.Document(
        results: results, implementation: .init(name: implementation), configuration: configuration,
        startedAt: startedAt, duration: Date().timeIntervalSince(startedAt))
      try write(JSONResultsReport.encode(document), to: path, what: "the JSON results")
    }
  }

  /// Merges shard JUnit files into one.
  static func mergeJUnit(into target: String, from inputs: [String], output: Output) -> ExitCode {
    do {
      let xml = try JUnitMerge.merge(inputs.map { URL(fileURLWithPath: $0) })
      try write(Data(xml.utf8), to: target, what: "the merged JUnit report")
      output.out("Merged \(inputs.count) reports into \(target)")
      return .success
    } catch {
      output.err("error: \(error)")
      return .usage
    }
  }

  /// Writes a waiver file for every test case a JUnit report shows as failed or errored.
  static func writeWaivers(fromReport report: String, to target: String, output: Output) -> ExitCode {
    do {
      let results = try JUnitMerge.failedTestCases(in: URL(fileURLWithPath: report))
      let date = ISO8601DateFormatter().string(from: Date()).prefix(10)
      try write(WaiverFile.adopting(results, date: String(date)).encoded(), to: target, what: "the waiver file")
      output.out("Waivers for \(results.count) vectors from \(report): \(target)")
      return .success
    } catch {
      output.err("error: \(error)")
      return .usage
    }
  }

  /// Writes a file atomically, creating its folder, with an error that names the path.
  static func write(_ data: Data, to path: String, what: String) throws(CommandError) {
    let url = URL(fileURLWithPath: path)
    do {
      try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
      try data.write(to: url, options: .atomic)
    } catch {
      throw .cannotWrite(what: what, path: path, reason: error.localizedDescription)
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
      "cannot write \(what) to '\(path)' (\(reason)); check the folder."
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
