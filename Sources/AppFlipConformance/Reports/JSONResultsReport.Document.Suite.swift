extension JSONResultsReport.Document {
  /// The suite that wrote the document.
  package struct Suite: Sendable, Hashable, Codable {
    /// The suite's name.
    package var name: String
    /// The suite's version.
    package var version: String
    /// The commit the suite was built from, or `unknown` (`SuiteInfo.commit`); absent in documents before 0.2.0.
    package var commit: String?

    /// Creates a suite entry; the defaults are this suite.
    package init(name: String = SuiteInfo.name, version: String = SuiteInfo.version, commit: String? = SuiteInfo.commit)
    {
      self.name = name
      self.version = version
      self.commit = commit
    }
  }
}
