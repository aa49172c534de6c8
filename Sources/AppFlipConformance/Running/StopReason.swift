/// Why a run stopped before its last vector; the exit code follows from the case, the reports quote `description`.
public enum StopReason: Sendable, Hashable, CustomStringConvertible {
  /// SIGINT (Ctrl-C).
  case interrupted
  /// SIGTERM (a CI job cancelled, a container stopping).
  case terminated
  /// SIGHUP (the terminal or SSH session closed), handled as SIGTERM is.
  case hungUp
  /// `--max-failures N` failed or errored vectors were reached.
  case maxFailures(Int)
  /// A file the run needs cannot be used, so no vector runs; the sentence names the files and says what to do.
  case unusableInput(String)

  /// The reason in words, as the reports and the console show it, e.g. `interrupted (SIGINT)`.
  public var description: String {
    switch self {
    case .interrupted: "interrupted (SIGINT)"
    case .terminated: "terminated (SIGTERM)"
    case .hungUp: "hung up (SIGHUP)"
    case .maxFailures(let count): "--max-failures \(count) reached"
    case .unusableInput(let sentence): sentence
    }
  }
}
