import Foundation

/// `appflip-conformance fuzz`: generates links around the partner's configuration, judges every answer by the rules,
/// shrinks each failure and writes it as a vector file the partner can keep (`--out DIR/fuzz-findings.json`).
enum FuzzCommand {
  /// The usage text.
  static var usage: String {
    """
    USAGE: appflip-conformance fuzz [--links <n> | --seconds <n>] [--seed <n>] [--jobs <n>] [--config <file>]
                                    [--exec <command>] [--timeout <seconds>] [--waivers <file>] [--out <dir>]

    Generates links around the partner configuration (valid ones, then mutated: parameters, values, encodings,
    Unicode, outcomes, replays and interleaved links), judges every answer against what the rules allow, shrinks
    each distinct failure to its smallest link and writes one vector per finding.

    \(table.help(column: 24))

    Exit codes: 0 no failure (warnings are listed), 1 a failure or error was found, 2 bad usage, 3 the findings
    could not be written, 130/143/129 interrupted by SIGINT/SIGTERM/SIGHUP (the findings so far are written).
    """
  }

  /// The parsed options.
  struct Options {
    var links: Int?
    var seconds: Double?
    var seed: UInt64 = 1
    var jobs: Int?
    var configPath: String?
    var exec: String?
    var timeout: Double = 10
    var waivers: String?
    var out = "Reports/fuzz"
    var help = false

    /// Where the findings are written: `fuzz-findings.json` in `--out`.
    var findingsPath: String { URL(fileURLWithPath: out).appendingPathComponent("fuzz-findings.json").path }
  }

  /// The options of `fuzz`, in the order its usage lists them.
  static let table = OptionTable(options)
  private static let options: [OptionTable<Options>.Option] = [
    .init(
      ["--links"], "<n>", "Stop after n links (default: 10000 unless --seconds is given).",
      expected: "a positive whole number of links", OptionReader.count
    ) { $0.links = $1 },
    .init(
      ["--seconds"], "<n>", "Stop after n seconds.", expected: "a positive number of seconds", OptionReader.seconds
    ) { $0.seconds = $1 },
    .init(
      ["--seed"], "<n>", "The seed; the same seed generates the same links (default: 1).",
      expected: "a whole number from 0 to 18446744073709551615", { UInt64($0) },
      set: { $0.seed = $1 }
    ),
    .init(
      ["--jobs"], "<n>",
      "Split the links over n workers, each with an adapter of its own (its own process over --exec; default: the "
        + "machine's cores). The findings, their order and their shrunk vectors are the same whatever n is, for a "
        + "handler that answers each link alike.",
      expected: "a positive whole number of workers", OptionReader.count
    ) { $0.jobs = $1 },
    .init(["--config"], "<file>", "Partner configuration JSON, as for a run.") { $0.configPath = $1 },
    .init(
      ["--exec"], "<command>",
      "Fuzz a handler in any language over the subprocess protocol (default: the reference)."
    ) { $0.exec = $1 },
    .timeout { $0.timeout = $1 },
    .init(
      ["--waivers"], "<file>",
      "Expected findings, as for a run: a finding whose vector id a waiver matches (e.g. fuzz/af-re-5/*) is listed "
        + "as waived and does not fail; errors are never waived, and a waiver that matches no finding is not an "
        + "error here."
    ) { $0.waivers = $1 },
    .init(
      ["--out"], "<dir>",
      "Write the findings as a vector file into this folder (default: Reports/fuzz).\nIn-process, each finding "
        + "carries the configuration it was found under; over --exec, run the file with the same --config."
    ) { $0.out = $1 },
  ]

  static func run(_ arguments: [String], output: ConformanceCommand.Output, control: RunControl) async
    -> ConformanceCommand.ExitCode
  {
    var options = Options()
    let configuration: PartnerConfiguration
    let waivers: WaiverFile?
    do {
      options.help = try !table.parse(arguments, into: &options)
      if options.links == nil && options.seconds == nil { options.links = 10_000 }
      var paths = FilePaths()
      paths.input("--config", options.configPath)
      paths.input("--waivers", options.waivers)
      paths.output("--out", options.findingsPath)
      try paths.check()
      configuration =
        try options.configPath.map { try PartnerConfiguration.load(URL(fileURLWithPath: $0)) } ?? .default
      waivers = try options.waivers.map { try WaiverFile.load(URL(fileURLWithPath: $0)) }
    } catch {
      output.err("error: \(ConsoleText.safe(String(describing: error)))")
      return .usage
    }
    if options.help {
      output.out(usage)
      return .success
    }
    let jobs = options.jobs ?? max(1, ProcessInfo.processInfo.activeProcessorCount)
    let adapters = (0..<jobs).map { _ in ConformanceCommand.makeAdapter(exec: options.exec, timeout: options.timeout) }
    let fuzzer = Fuzzer(adapters: adapters, configuration: configuration, seed: options.seed, timeout: options.timeout)
    let interruption = InterruptionWatch(control: control)
    let report = await fuzzer.run(links: options.links, seconds: options.seconds, control: control) { links, found in
      output.progress?("fuzz: \(links) links, \(found) findings")
    }
    interruption.stop()
    for adapter in adapters { adapter.shutdown() }
    if output.progress != nil { output.progress?("") }

    let rate = report.seconds > 0 ? Int(Double(report.links) / report.seconds) : 0
    output.out(
      "fuzz: \(report.links) links (\(report.cases) cases) against \(fuzzer.adapter.name) (--jobs \(jobs)) in "
        + String(format: "%.1f", report.seconds) + " s (\(rate) links/s), seed \(options.seed): "
        + "\(report.findings.count) distinct findings")
    // A waived finding is skipped with the waiver's reason, as a waived vector is (errors stay errors).
    let results = report.findings.map { waivers?.apply(to: $0.result, file: options.waivers ?? "") ?? $0.result }
    for (finding, result) in zip(report.findings, results) {
      let label = result.status == .skipped ? "WAIVED" : (result.status == .warning ? "WARN" : "FAIL")
      output.out(
        "\(label) \(finding.key): \(finding.vector.id) (after \(finding.foundAfter) links) "
          + (result.status == .skipped ? "\(result.message); " : "") + finding.vector.description)
    }
    if !report.findings.isEmpty {
      let file = VectorFile(
        area: "fuzz",
        description:
          "Findings of appflip-conformance fuzz, seed \(options.seed), client id \(configuration.clientID): "
          + "load with --vectors \(options.findingsPath).",
        vectors: report.findings.map(\.vector))
      do throws(CommandError) {
        try RunReports.write(json: file, to: options.findingsPath, what: "the findings")
        output.out("Findings: \(options.findingsPath)")
      } catch {
        output.err("error: \(ConsoleText.safe(error.description))")
        return .reportFailed
      }
    }
    if let reason = control.stopReason, let code = ConformanceCommand.ExitCode(stoppedBy: reason) {
      output.err("\(reason): fuzzing stopped early; the findings so far are written.")
      return code
    }
    let failed = results.contains { $0.status == .failed || $0.status == .error }
    return failed ? .failure : .success
  }
}
