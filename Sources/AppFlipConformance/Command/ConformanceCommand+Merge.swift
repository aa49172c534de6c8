import Foundation

extension ConformanceCommand {
  /// `merge`: the JSON results of a run's shards merged (`ResultsMerge`) into the reports the unsharded run writes,
  /// through the same writer (`RunReports`); exits as that run would (0 passed, 1 failed), 2 when the files are not
  /// the shards of one run, 3 when a report cannot be written.
  static func mergeResults(_ options: CommandLineOptions, output: Output) -> ExitCode {
    let merged: JSONResultsReport.Document
    do {
      merged = try ResultsMerge.merge(ResultsMerge.read(options.mergeResults))
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
}
