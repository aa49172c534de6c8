import Foundation

/// What a run did, as every report tells it: its results in report order and what they ran against; the crash journal
/// keeps one as the run goes (`RunJournal`), and the command line and the Swift Testing harness write their reports
/// from it (`RunReports`).
package struct RunRecord: Sendable {
  /// Every result, in report order: setup problems, vector-file problems, vectors.
  package var results: [VectorResult]
  /// The implementation's name, as the reports show it.
  package var implementation: String
  /// The partner configuration the vectors ran under.
  package var configuration: PartnerConfiguration
  /// When the run started.
  package var startedAt: Date
  /// The run's wall-clock seconds, which the JUnit report's times then add up to (a harness, whose cases overlap);
  /// `nil` for the time since `startedAt` in the JSON results, and JUnit times summed over the cases.
  package var duration: Double?
  /// Why the run stopped early, if it did.
  package var stopReason: String?
  /// The flags the Markdown summary describes: the bundled ones and those of the partner's `flags.json` loaded with
  /// the vectors (`VectorDefinitions.registry`); the JSON results keep the partner's.
  package var registry: FlagRegistry
  /// The vectors selected (count and digest) and the shard run, which every report names.
  package var selection: RunSelection?

  /// Creates a record.
  package init(
    results: [VectorResult], implementation: String, configuration: PartnerConfiguration, startedAt: Date = Date(),
    duration: Double? = nil, stopReason: String? = nil, registry: FlagRegistry = .bundled,
    selection: RunSelection? = nil
  ) {
    self.results = results
    self.implementation = implementation
    self.configuration = configuration
    self.startedAt = startedAt
    self.duration = duration
    self.stopReason = stopReason
    self.registry = registry
    self.selection = selection
  }
}
