/// A vector together with where it came from.
public struct LoadedVector: Sendable, Hashable {
  /// The vector.
  public var vector: Vector
  /// The file it was read from, as shown in messages and reports.
  public var file: String
  /// The area of its file.
  public var area: String

  /// Creates a loaded vector.
  public init(vector: Vector, file: String, area: String) {
    self.vector = vector
    self.file = file
    self.area = area
  }
}
