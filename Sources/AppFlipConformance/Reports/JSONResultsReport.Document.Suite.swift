extension JSONResultsReport.Document {
  /// The suite that wrote the document.
  package struct Suite: Sendable, Hashable, Codable {
    /// The suite's name.
    package var name: String
    /// The suite's version.
    package var version: String

    /// Creates a suite entry; the defaults are this suite.
    package init(name: String = SuiteInfo.name, version: String = SuiteInfo.version) {
      self.name = name
      self.version = version
    }
  }
}
