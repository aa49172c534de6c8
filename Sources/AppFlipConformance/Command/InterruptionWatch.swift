import Foundation

/// Turns SIGINT and SIGTERM into a request to stop the run, so the vectors that ran are still reported.
///
/// While it watches, the signals' default action (ending the process at once) is off; `stop()` restores it.
final class InterruptionWatch: @unchecked Sendable {
  private var sources: [any DispatchSourceSignal] = []

  /// Starts watching, asking `control` to stop on either signal.
  init(control: RunControl) {
    for (signalNumber, name) in [(SIGINT, "interrupted (SIGINT)"), (SIGTERM, "terminated (SIGTERM)")] {
      signal(signalNumber, SIG_IGN)
      let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .global())
      source.setEventHandler { control.stop(name) }
      source.resume()
      sources.append(source)
    }
  }

  /// Stops watching and restores the default actions.
  func stop() {
    for source in sources { source.cancel() }
    sources = []
    signal(SIGINT, SIG_DFL)
    signal(SIGTERM, SIG_DFL)
  }
}
