import Foundation

/// How many work items wait behind a subprocess adapter's read, so the read gives way to them at once: queuing one writes a byte
/// to a wake pipe that the read polls, when a read is in progress.
final class SubprocessWorkCount: @unchecked Sendable {
  private let state = Locked<(count: Int, reading: Bool)>((0, false))
  /// The pipe's ends; the read end is in every `poll` of a read (`SubprocessChild.wakeFD`).
  let wakeRead: Int32
  private let wakeWrite: Int32

  init() {
    let ends = try? SubprocessSpawn.makePipe()
    wakeRead = ends?.read ?? -1
    wakeWrite = ends?.write ?? -1
    for descriptor in [wakeRead, wakeWrite] where descriptor >= 0 {
      _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
    }
  }

  deinit {
    for descriptor in [wakeRead, wakeWrite] where descriptor >= 0 { close(descriptor) }
  }

  /// Adds `delta` (1 when an item is queued, -1 when it runs); a queued item wakes a read in progress.
  func add(_ delta: Int) {
    let wake = state.withLock {
      $0.count += delta
      return delta > 0 && $0.reading
    }
    if wake { self.wake() }
  }

  /// Wakes a read in progress, so it looks at its cancellation (a step given up on) at once.
  func wake() {
    var byte: UInt8 = 1
    if wakeWrite >= 0 { _ = write(wakeWrite, &byte, 1) }
  }

  /// Marks a read in progress (or over); the read empties the wake pipe when it wakes on it.
  func setReading(_ flag: Bool) {
    state.withLock { $0.reading = flag }
  }

  /// Whether any item waits.
  var isWaiting: Bool { state.withLock { $0.count > 0 } }
}
