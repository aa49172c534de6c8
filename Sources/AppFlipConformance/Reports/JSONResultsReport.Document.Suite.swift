extension JSONResultsReport.Document {
  /// The suite that wrote the document.
  public struct Suite: Sendable, Hashable, Codable {
    /// The suite's name.
    public var name: String
    /// The suite's version.
    public var version: String

    /// Creates a suite entry; the defaults are this suite.
    public init(name: String = SuiteInfo.name, version: String = SuiteInfo.version) {
      self.name = name
      self.version = version
    }
  }
}
