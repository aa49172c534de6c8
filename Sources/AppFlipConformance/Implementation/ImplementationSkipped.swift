/// Thrown by an adapter when the implementation itself declines a vector; the runner reports the vector as skipped with the reason.
public struct ImplementationSkipped: Error, Sendable, Hashable, CustomStringConvertible {
  /// Why the implementation did not run the vector, in its own words.
  package var reason: String

  /// Creates a skip with the implementation's reason.
  public init(reason: String) {
    self.reason = reason
  }

  /// The reason.
  public var description: String { reason }
}
