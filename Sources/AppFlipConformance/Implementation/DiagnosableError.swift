/// An adapter error that carries what the implementation wrote to stderr, for the report.
public protocol DiagnosableError: Error {
  /// The implementation's stderr around the failure.
  var diagnostics: String { get }
}
