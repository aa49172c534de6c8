extension ConformanceCommand.ExitCode {
  /// The exit code of a run a signal stopped: 130 for SIGINT, 143 for SIGTERM, 129 for SIGHUP; `nil` for any other stop, whose exit
  /// code follows from the results.
  init?(stoppedBy reason: StopReason) {
    switch reason {
    case .interrupted: self = .interrupted
    case .terminated: self = .terminated
    case .hungUp: self = .hungUp
    case .maxFailures, .unusableInput: return nil
    }
  }
}
