/// Why a subprocess implementation could not be judged on a step, with what it wrote to stderr meanwhile.
package struct SubprocessError: Error, Sendable, Hashable, DiagnosableError, CustomStringConvertible {
  /// One sentence on what went wrong and what to do; the runner prefixes it with "the implementation threw: ".
  package var message: String
  /// The implementation's stderr while it handled the step (the last 8 KB).
  package var diagnostics: String

  /// Creates an error.
  package init(message: String, diagnostics: String = "") {
    self.message = message
    self.diagnostics = diagnostics
  }

  /// The message.
  package var description: String { message }
}
