import Foundation

/// The `appflip-conformance` command: loads vectors, runs them, prints the summary, writes JUnit, and returns the exit code.
public enum ConformanceCommand {
  /// Exit codes (README "Exit codes").
  public enum ExitCode: Int32, Sendable {
    /// Every selected vector passed (warnings allowed unless strict).
    case success = 0
    /// A vector failed or could not be judged.
    case failure = 1
    /// Bad usage, a bad configuration file, or bad vector files.
    case usage = 2
  }

  /// Where the command writes: standard output and standard error by default.
  public struct Output: Sendable {
    /// Writes a line to standard output.
    public var out: @Sendable (String) -> Void
    /// Writes a line to standard error.
    public var err: @Sendable (String) -> Void

    /// Creates an output.
    public init(out: @escaping @Sendable (String) -> Void, err: @escaping @Sendable (String) -> Void) {
      self.out = out
      self.err = err
    }

    /// The process's standard output and standard error.
    public static let standard = Output(
      out: { print($0) },
      err: { FileHandle.standardError.write(Data(($0 + "\n").utf8)) })
  }

  /// Runs the command with these arguments (without the program name).
  public static func run(_ arguments: [String], output: Output = .standard) async -> ExitCode {
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

    var configuration = PartnerConfiguration.default
    if let path = options.configPath {
      do {
        configuration = try PartnerConfiguration.load(URL(fileURLWithPath: path))
      } catch {
        output.err("error: \(error)")
        return .usage
      }
    }

    let adapter: any ConformanceAdapter
    do {
      adapter = try makeAdapter(options)
    } catch {
      output.err("error: \(error)")
      return .usage
    }
    var catalog = options.bundled ? VectorLoader.loadBundled(adapter.profile) : VectorCatalog()
    for path in options.vectorPaths {
      catalog.merge(VectorLoader.load(URL(fileURLWithPath: path), displayPath: path))
    }
    catalog = options.filter.apply(to: catalog)
    for problem in catalog.problems { output.err("error: \(problem)") }
    let filesOK: ExitCode = catalog.problems.isEmpty ? .success : .usage

    if options.validate {
      output.out("\(catalog.vectors.count) vectors valid, \(catalog.problems.count) problems")
      return filesOK
    }
    if options.list {
      for loaded in catalog.vectors {
        let vector = loaded.vector
        output.out("\(vector.id)\t\(vector.level.rawValue)\t\((vector.tags + vector.flags).joined(separator: ","))")
      }
      return filesOK
    }

    let runner = Runner(
      adapter: adapter, configuration: configuration, timeout: options.timeout, strict: options.strict)
    output.out("\(SuiteInfo.name) \(SuiteInfo.version): \(catalog.vectors.count) vectors against \(adapter.name)")
    let results = await runner.run(catalog)
    output.out(String(ConsoleReport.render(results).dropLast()))

    do {
      try JUnitReport.write(results, implementation: adapter.name, to: URL(fileURLWithPath: options.reportPath))
      output.out("JUnit report: \(options.reportPath)")
    } catch {
      output.err(
        "error: cannot write the JUnit report to '\(options.reportPath)' (\(error.localizedDescription)); check the folder."
      )
      return .usage
    }
    if filesOK != .success { return filesOK }
    return RunSummary(results).isSuccess ? .success : .failure
  }
}
