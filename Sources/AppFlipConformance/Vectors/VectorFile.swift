/// A vector file: a header for one area and its vectors, in the manner of Wycheproof's test files.
public struct VectorFile: Sendable, Hashable, Codable {
  /// The only vector-file schema version this release reads.
  package static let currentSchemaVersion = 1

  /// The schema version the file is written for.
  package var schemaVersion: Int
  /// Which side of App Flip the file's vectors test.
  public enum Profile: String, Sendable, Hashable, Codable, CaseIterable {
    /// The partner app's handler (APPFLIP-RULES "Verdicts", "The return URL").
    case app
    /// The partner's OAuth authorization endpoint (APPFLIP-RULES "Authorization endpoint", AF-EP).
    case endpoint
    /// The partner's OAuth token endpoint, with the codes its authorization endpoint gives (APPFLIP-RULES AF-TK).
    case token
    /// The partner's universal link association: its file, and every App Flip link opening the app (AF-UL).
    case association

    /// The profiles whose vectors an adapter of this profile runs: a token endpoint's run gets its codes from the
    /// authorization endpoint, so it runs that profile's vectors too, and exchanges each code they get (AF-TK-1); an
    /// association's runs the app's too, whose links must open the app (AF-UL-3).
    package var runs: [Profile] {
      switch self {
      case .token: [.endpoint, .token]
      case .association: [.association, .app]
      default: [self]
      }
    }
  }

  /// Which side the vectors test; `app` when absent.
  package var profile: Profile
  /// The area its vectors cover, e.g. `redirect-uri`; it names the JUnit test suite.
  package var area: String
  /// What the file covers.
  package var description: String
  /// The vectors.
  package var vectors: [Vector]

  /// Creates a vector file.
  package init(
    schemaVersion: Int = VectorFile.currentSchemaVersion, profile: Profile = .app, area: String, description: String,
    vectors: [Vector]
  ) {
    self.schemaVersion = schemaVersion
    self.profile = profile
    self.area = area
    self.description = description
    self.vectors = vectors
  }
}
