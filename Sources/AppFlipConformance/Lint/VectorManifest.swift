import Foundation

/// The committed list of every vector id ever released, with what each means; ids are never reused (`Vectors/manifest.json`).
package struct VectorManifest: Sendable, Hashable, Codable {
  /// One released id.
  package struct Entry: Sendable, Hashable, Codable {
    /// The vector's fingerprint when it was recorded; see `Fingerprint`.
    package var fingerprint: String
    /// Why the vector was withdrawn; a deprecated id is never used again.
    package var deprecated: String?
  }

  /// The manifest format version.
  package var schemaVersion: Int
  /// What the file is.
  package var description: String
  /// Entries by vector id.
  package var vectors: [String: Entry]

  /// Creates a manifest.
  package init(vectors: [String: Entry] = [:]) {
    schemaVersion = 1
    description =
      "Every vector id ever released and the fingerprint of what it asserts. Never remove an entry: mark it deprecated. Update with `swift run appflip-lint --update`."
    self.vectors = vectors
  }

  /// The manifest with every vector of the catalog recorded: new ids are added, nothing is removed or changed.
  package func adding(_ vectors: [LoadedVector]) -> VectorManifest {
    var copy = self
    for loaded in vectors where copy.vectors[loaded.vector.id] == nil {
      copy.vectors[loaded.vector.id] = Entry(fingerprint: Fingerprint.of(loaded.vector))
    }
    return copy
  }
}
