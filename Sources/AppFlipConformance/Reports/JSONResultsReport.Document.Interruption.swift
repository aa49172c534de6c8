extension JSONResultsReport.Document {
  /// Why a run stopped before every selected vector ran: a signal (SIGINT, SIGTERM) or `--max-failures`.
  public struct Interruption: Sendable, Hashable, Codable {
    /// Why, e.g. `interrupted (SIGINT)` or `--max-failures 3 reached`.
    public var reason: String
    /// How many selected vectors did not run (reported as skipped, "not run").
    public var notRun: Int

    /// Creates the entry.
    public init(reason: String, notRun: Int) {
      self.reason = reason
      self.notRun = notRun
    }
  }
}
