import AppFlipVectors
import Foundation

/// The registry of bug-class flags (`Vectors/flags.json`), in the manner of Wycheproof's `notes`.
public struct FlagRegistry: Sendable, Hashable, Codable {
  /// One bug class.
  public struct Flag: Sendable, Hashable, Codable {
    /// What goes wrong.
    public var description: String
    /// What it leads to.
    public var effect: String
    /// RFCs, CVEs and real-world reports.
    public var links: [String]
  }

  /// The registry's schema version.
  public var schemaVersion: Int
  /// What the registry is.
  public var description: String
  /// The flags by name.
  public var flags: [String: Flag]

  /// The registry bundled with the package; empty if it cannot be read (the lint test reads it strictly).
  public static let bundled: FlagRegistry = {
    guard let data = try? Data(contentsOf: BundledVectors.flags),
      let registry = try? JSONDecoder().decode(FlagRegistry.self, from: data)
    else {
      return FlagRegistry(schemaVersion: 1, description: "", flags: [:])
    }
    return registry
  }()
}
