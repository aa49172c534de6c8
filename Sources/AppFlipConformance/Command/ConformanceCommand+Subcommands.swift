import Foundation

/// The subcommands beside a run: `merge`, `merge-junit`, `--write-waivers` from a JUnit report, and `lint`.
extension ConformanceCommand {
  /// `merge`: the JSON results of a run's shards merged (`ResultsMerge`) into the reports the unsharded run writes,
  /// through the same writer (`RunReports`); exits as that run would (0 passed, 1 failed), 2 when the files are not
  /// the shards of one run, 3 when a report cannot be written.
  static func mergeResults(_ options: CommandLineOptions, output: Output) -> ExitCode {
    let merged: JSONResultsReport.Document
    do {
      merged = try ResultsMerge.merge(options.mergeResults)
    } catch {
      output.err("error: \(ConsoleText.safe(error.description))")
      return .usage
    }
    var run = options.run
    run.strict = merged.strict
    var registry = FlagRegistry.bundled
    registry.flags.merge(merged.flags) { bundled, _ in bundled }
    let record = RunRecord(
      results: merged.results, implementation: merged.implementation.name, configuration: merged.configuration,
      startedAt: merged.startedAt, duration: merged.duration, stopReason: merged.interrupted?.reason,
      registry: registry, selection: merged.selection)
    let failures = RunReports.write(record, options: run)
    for failure in failures { output.err("error: \(ConsoleText.safe(failure.description))") }
    output.out(
      "Merged \(Count.of(options.mergeResults.count, "shard")): \(Count.of(merged.summary.total, "vector")): "
        + merged.summary.line)
    if !failures.isEmpty { return .reportFailed }
    return merged.summary.isSuccess && merged.interrupted == nil ? .success : .failure
  }

  /// Merges shard JUnit files into one.
  static func mergeJUnit(into target: String, from inputs: [String], output: Output) -> ExitCode {
    do {
      let xml = try JUnitMerge.merge(inputs.map { URL(fileURLWithPath: $0) })
      try RunReports.write(Data(xml.utf8), to: target, what: "the merged JUnit report")
      output.out("Merged \(inputs.count) reports into \(target)")
      return .success
    } catch {
      output.err("error: \(ConsoleText.safe(String(describing: error)))")
      return .usage
    }
  }

  /// Writes the waivers a run needs (`RunReports.writeWaivers`) and prints what it wrote.
  static func writeWaivers(
    _ results: [VectorResult], updating waivers: WaiverFile?, to path: String, date: Date, output: Output
  ) throws(CommandError) {
    let (written, note) = try RunReports.writeWaivers(results, updating: waivers, to: path, date: date)
    output.out(written)
    if let note { output.err(note) }
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

  /// `lint`: checks a partner's vector files or folders (`PartnerLint`), printing each problem; exits 0 when they
  /// are clean, 1 with problems.
  static func lint(_ paths: [String], output: Output) -> ExitCode {
    let lint = PartnerLint(paths: paths)
    let problems = lint.problems
    for problem in problems { output.out("problem: \(ConsoleText.safe(problem))") }
    output.out(lint.summary(problems: problems.count))
    return problems.isEmpty ? .success : .failure
  }
}
