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
  /// A problem of the waiver file, the configuration or the selection, when this case stands for one.
  let waiverProblem: String?
  /// What that problem stands for: the waivers, the configuration or the selection.
  var problemOrigin = VectorResult.Origin.waiver
  /// The case's position in `ConformanceHarness.cases`, which keeps it apart from a case with the same id.
  var index = 0

  init(loaded: LoadedVector) {
    id = loaded.vector.id
    self.loaded = loaded
    problems = []
    waiverProblem = nil
  }

  init(problems: [VectorError]) {
    id = problems.first?.vectorID ?? problems.first?.file ?? "?"
    loaded = nil
    self.problems = problems
    waiverProblem = nil
  }

  init(waiver id: String, problem: String) {
    self.id = id
    loaded = nil
    problems = []
    waiverProblem = problem
  }

  init(configuration problem: ConfigurationCheck.Problem) {
    self.init(waiver: "configuration \(problem.field)", problem: "configuration: \(problem)")
    problemOrigin = .configuration
  }

  init(selection problem: EmptySelection) {
    self.init(waiver: "selection", problem: problem.description)
    problemOrigin = .selection
  }

  /// The vector id, as Swift Testing displays the case.
  public var testDescription: String { id }
}
