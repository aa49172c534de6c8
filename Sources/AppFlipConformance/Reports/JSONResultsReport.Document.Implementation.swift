extension JSONResultsReport.Document {
  /// The implementation under test.
  public struct Implementation: Sendable, Hashable, Codable {
    /// Its name, e.g. the adapter's name.
    public var name: String
    /// Its version, when known.
    public var version: String?
    /// Its language, when known.
    public var language: String?

    /// Creates an implementation entry.
    public init(name: String, version: String? = nil, language: String? = nil) {
      self.name = name
      self.version = version
      self.language = language
    }
  }
}
