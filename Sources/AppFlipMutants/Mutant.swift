import AppFlipConformance

/// A deliberately broken App Flip handler, one realistic bug each; the suite must catch every one.
public struct Mutant: Sendable {
  /// A stable name, e.g. `prefix-match-redirect`.
  public var name: String
  /// The bug, in one sentence.
  public var bug: String
  /// Builds the broken handler for a partner configuration.
  public var make: @Sendable (PartnerConfiguration) -> any AppFlipHandler

  /// Creates a mutant.
  public init(name: String, bug: String, make: @escaping @Sendable (PartnerConfiguration) -> any AppFlipHandler) {
    self.name = name
    self.bug = bug
    self.make = make
  }
}
