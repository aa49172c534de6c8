/// How one vector ended.
public enum Status: String, Sendable, Hashable, Codable, CaseIterable {
  /// Every check held (MAY deviations are noted, not counted).
  case passed
  /// A MUST check failed, or a SHOULD check in a strict run.
  case failed
  /// Only SHOULD checks failed.
  case warning
  /// The vector did not apply to this configuration or adapter.
  case skipped
  /// The vector could not be judged: it is malformed, or the adapter threw, timed out or answered garbage.
  case error
  /// A waiver expects this vector to fail, but it passes: the waiver is stale and fails the run until it is removed.
  case stale
  /// An endpoint's answer that proves nothing: its own login or consent page answered, and no signed-in request was
  /// shown to get a code (APPFLIP-RULES AF-EP-5), or the test user's session ended, or the endpoint stopped answering,
  /// before it (AF-EP-7); never counted as passed, never waived.
  case inconclusive

  /// Whether the implementation has something to fix or look at here: a failure, a warning or an error.
  package var needsAttention: Bool {
    switch self {
    case .failed, .warning, .error: true
    case .passed, .skipped, .stale, .inconclusive: false
    }
  }
}
