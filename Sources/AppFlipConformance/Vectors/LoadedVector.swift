/// A vector together with where it came from.
public struct LoadedVector: Sendable, Hashable {
  /// The vector.
  package var vector: Vector
  /// The file it was read from, as shown in messages and reports.
  public var file: String
  /// The area of its file.
  public var area: String
  /// The profile of its file.
  package var profile: VectorFile.Profile

  /// Creates a loaded vector.
  package init(vector: Vector, file: String, area: String, profile: VectorFile.Profile = .app) {
    self.vector = vector
    self.file = file
    self.area = area
    self.profile = profile
  }
}
