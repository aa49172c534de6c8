import Foundation

extension ConformanceCommand {
  /// Where the command writes: standard output and standard error by default.
  package struct Output: Sendable {
    /// Writes a line to standard output.
    package var out: @Sendable (String) -> Void
    /// Writes a line to standard error.
    package var err: @Sendable (String) -> Void
    /// Rewrites the progress line on a terminal; `nil` shows no progress.
    package var progress: (@Sendable (String) -> Void)?
    /// Whether the console report may use colour.
    package var colour: Bool

    /// Creates an output.
    package init(
      out: @escaping @Sendable (String) -> Void, err: @escaping @Sendable (String) -> Void,
      progress: (@Sendable (String) -> Void)? = nil, colour: Bool = false
    ) {
      self.out = out
      self.err = err
      self.progress = progress
      self.colour = colour
    }

    /// The process's standard output and error; progress and colour only on a terminal, colour never with `NO_COLOR`.
    package static var standard: Output {
      let terminalOut = isatty(STDOUT_FILENO) == 1
      let terminalErr = isatty(STDERR_FILENO) == 1
      let colour = wantsColour(terminal: terminalOut, environment: ProcessInfo.processInfo.environment)
      var progress: (@Sendable (String) -> Void)?
      if terminalErr {
        progress = { line in ConsoleStream.err.write("\r\u{1B}[2K" + line) }
      }
      return Output(
        out: { ConsoleStream.out.write($0 + "\n") },
        err: { ConsoleStream.err.write(ConsoleText.safe($0) + "\n") },
        progress: progress,
        colour: colour)
    }

    /// Colour only on a terminal, and never when `NO_COLOR` is set to anything but the empty string (no-color.org).
    package static func wantsColour(terminal: Bool, environment: [String: String]) -> Bool {
      terminal && (environment["NO_COLOR"] ?? "").isEmpty
    }
  }
}
