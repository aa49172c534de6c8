/// Stands in for a crash (a force unwrap of a value that did not decode): a real crash would end the test process.
public struct PartnerCrash: Error, Sendable, CustomStringConvertible {
  /// What the handler force-unwrapped.
  public var what: String

  /// Creates a crash report.
  public init(what: String) {
    self.what = what
  }

  /// A one-line account of the crash.
  public var description: String { "crashed: force-unwrapped \(what), which was nil" }
}
