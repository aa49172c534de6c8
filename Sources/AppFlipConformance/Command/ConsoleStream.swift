import Foundation

/// Standard output or error written with `write(2)`: a reader that went away (`| head -1`, EPIPE) means "stop
/// printing", never an end of the run before its reports are written (SIGPIPE is ignored by the command).
final class ConsoleStream: @unchecked Sendable {
  /// Standard output.
  static let out = ConsoleStream(STDOUT_FILENO)
  /// Standard error.
  static let err = ConsoleStream(STDERR_FILENO)

  private let descriptor: Int32
  private let lock = NSLock()
  private var closed = false

  private init(_ descriptor: Int32) {
    self.descriptor = descriptor
  }

  /// Writes the text; after a write fails (the reader is gone), writes nothing more.
  func write(_ text: String) {
    lock.withLock {
      guard !closed else { return }
      var bytes = Array(text.utf8)
      var offset = 0
      bytes.withUnsafeMutableBytes { buffer in
        while offset < buffer.count {
          let written = Foundation.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
          if written < 0 {
            if errno == EINTR { continue }
            closed = true
            return
          }
          offset += written
        }
      }
    }
  }
}
