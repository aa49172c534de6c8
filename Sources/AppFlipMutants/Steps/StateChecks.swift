/// The state step: the state to carry through the flow, or `nil` when the request must be rejected for it.
public enum StateChecks {
  /// Correct: exactly one non-empty, well-formed state (AF-IN-1).
  @Sendable public static func required(_ state: LinkValue) -> String? {
    state.text
  }

  /// Bug: carries on with an empty state when none arrived (`state ?? ""`).
  @Sendable public static func emptyWhenMissing(_ state: LinkValue) -> String? {
    state == .missing ? "" : state.text
  }
}
