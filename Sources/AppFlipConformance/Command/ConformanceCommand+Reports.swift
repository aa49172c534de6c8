import Foundation

extension ConformanceCommand {
  /// Writes the reports the options ask for (`RunReports`, shared with `ConformanceHarness`), describing the flags and
  /// rules `definitions` holds. Returns a sentence for each report that could not be written.
  static func writeReports(
    _ results: [VectorResult], options: CommandLineOptions, implementation: String,
    configuration: PartnerConfiguration, startedAt: Date, stopReason: String? = nil, definitions: VectorDefinitions,
    selection: RunSelection? = nil
  ) -> [CommandError] {
    RunReports.write(
      results, options: options.run, implementation: implementation, configuration: configuration,
      startedAt: startedAt, stopReason: stopReason, registry: definitions.registry, selection: selection)
  }
}
