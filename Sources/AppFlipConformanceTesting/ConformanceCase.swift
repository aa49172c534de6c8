import AppFlipConformance
import Testing

/// One vector (or one unusable vector file) as a Swift Testing case, displayed by its vector id.
public struct ConformanceCase: Sendable, Hashable, CustomTestStringConvertible {
  /// The vector's id, or the file's path when the file could not be read.
  public let id: String
  /// The vector, when it loaded.
  let loaded: LoadedVector?
  /// The problems that made it unusable, when it did not.
  let problems: [VectorError]

  init(loaded: LoadedVector) {
    id = loaded.vector.id
    self.loaded = loaded
    problems = []
  }

  init(problems: [VectorError]) {
    id = problems.first?.vectorID ?? problems.first?.file ?? "?"
    loaded = nil
    self.problems = problems
  }

  /// The vector id, as Swift Testing displays the case.
  public var testDescription: String { id }
}
