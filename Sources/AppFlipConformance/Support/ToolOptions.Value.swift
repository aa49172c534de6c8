extension ToolOptions {
  /// The value a valued option takes: how the help shows it and what a missing one is called in an error.
  package struct Value: Sendable {
    /// How the help shows it, e.g. `DIR`.
    package var placeholder: String
    /// What it is, for "'--root' needs a folder".
    package var meaning: String
  }
}
