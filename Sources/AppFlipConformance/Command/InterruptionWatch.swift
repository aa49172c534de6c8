import Foundation

/// Turns SIGINT, SIGTERM and SIGHUP into a request to stop the run at once, so the vectors that ran are still reported.
///
/// The first signal asks `control` to stop and calls `onStop` (which cancels the step in flight and so stops the
/// adapter); the loading of vector files watches `control` too. A second SIGINT ends the process at once with 130
/// (killing the children it started), as a person pressing Ctrl-C twice expects. While it watches, the signals'
/// default action (ending the process at once) is off; `stop()` restores it.
final class InterruptionWatch: @unchecked Sendable {
  private let lock = NSLock()
  private var sources: [any DispatchSourceSignal] = []
  private var stopHandler: (@Sendable () -> Void)?
  private var signalled = false

  /// The signals watched, and the reason each gives.
  static let signals: [(Int32, StopReason)] = [(SIGINT, .interrupted), (SIGTERM, .terminated), (SIGHUP, .hungUp)]

  /// Starts watching, asking `control` to stop on any of the signals.
  init(control: RunControl) {
    for (signalNumber, reason) in Self.signals {
      signal(signalNumber, SIG_IGN)
      let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .global())
      source.setEventHandler { [weak self] in
        guard let self else { return }
        let (again, handler) = self.lock.withLock {
          defer { self.signalled = true }
          return (self.signalled, self.stopHandler)
        }
        if again && signalNumber == SIGINT {
          ChildProcesses.killAll()
          _exit(ConformanceCommand.ExitCode.interrupted.rawValue)
        }
        control.stop(reason)
        handler?()
      }
      source.resume()
      sources.append(source)
    }
  }

  /// Called on the first signal (at once if one already came): cancels the work in flight.
  var onStop: (@Sendable () -> Void)? {
    get { lock.withLock { stopHandler } }
    set {
      let already = lock.withLock {
        stopHandler = newValue
        return signalled
      }
      if already { newValue?() }
    }
  }

  /// Stops watching and restores the default actions.
  func stop() {
    for source in sources { source.cancel() }
    sources = []
    for (signalNumber, _) in Self.signals { signal(signalNumber, SIG_DFL) }
  }
}
