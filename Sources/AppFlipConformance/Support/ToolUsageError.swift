/// A command line a small tool cannot run: one sentence that quotes what was wrong and says what to do.
package struct ToolUsageError: Error, Sendable, Hashable {
  /// The sentence, without the leading "error: ".
  package var message: String

  /// Creates the error with its sentence.
  package init(message: String) {
    self.message = message
  }
}
