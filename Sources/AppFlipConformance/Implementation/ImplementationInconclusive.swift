/// Thrown by an adapter when what it saw cannot be judged either way: an endpoint whose test user's session ended, or
/// that stopped answering (APPFLIP-RULES AF-EP-7); the runner reports the vector as inconclusive with the reason.
package struct ImplementationInconclusive: Error, Sendable, Hashable, CustomStringConvertible {
  /// Why nothing can be concluded, and what to do.
  package var reason: String

  /// Creates the error with its reason.
  package init(reason: String) {
    self.reason = reason
  }

  /// The reason.
  package var description: String { reason }
}
