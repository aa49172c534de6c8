/// A vector file: a header for one area and its vectors, in the manner of Wycheproof's test files.
public struct VectorFile: Sendable, Hashable, Codable {
  /// The only vector-file schema version this release reads.
  public static let currentSchemaVersion = 1

  /// The schema version the file is written for.
  public var schemaVersion: Int
  /// The area its vectors cover, e.g. `redirect-uri`; it names the JUnit test suite.
  public var area: String
  /// What the file covers.
  public var description: String
  /// The vectors.
  public var vectors: [Vector]

  /// Creates a vector file.
  public init(
    schemaVersion: Int = VectorFile.currentSchemaVersion, area: String, description: String, vectors: [Vector]
  ) {
    self.schemaVersion = schemaVersion
    self.area = area
    self.description = description
    self.vectors = vectors
  }
}
