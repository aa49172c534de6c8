extension JSONResultsReport.Document {
  /// Why a run stopped before every selected vector ran: a signal (SIGINT, SIGTERM) or `--max-failures`.
  package struct Interruption: Sendable, Hashable, Codable {
    /// Why, e.g. `interrupted (SIGINT)` or `--max-failures 3 reached`.
    package var reason: String
    /// How many selected vectors did not run (reported as skipped, "not run").
    package var notRun: Int

    /// Creates the entry.
    package init(reason: String, notRun: Int) {
      self.reason = reason
      self.notRun = notRun
    }
  }
}
