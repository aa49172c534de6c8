import AppFlipConformance
import Testing

/// One vector (or one unusable vector file, or one problem of the setup) as a Swift Testing case, displayed by its
/// vector id and re-runnable by it.
public struct ConformanceCase: Sendable, Hashable, CustomTestStringConvertible, CustomTestArgumentEncodable {
  /// The vector's id, or the file's path when the file could not be read.
  public let id: String
  /// The vector, when it loaded.
  var loaded: LoadedVector?
  /// The problems that made it unusable, when it did not.
  var problems: [VectorError] = []
  /// The problem this case stands for, when it is not a vector.
  var problem: String?
  /// What the case stands for, as its result's origin: a vector, an unusable vector file, an unreadable waiver file
  /// (`waiverFile`), a waiver that matches no loaded vector (`waiver`), a problem of the configuration or the
  /// selection, or reports another harness already writes (`harness`).
  var kind = VectorResult.Origin.vector
  /// The case's position in `ConformanceHarness.cases`, which keeps it apart from a case with the same id.
  var index = 0
  /// Where the vector is written, when it is the partner's own (issues point there); `nil` for a bundled one.
  var source: VectorSource?

  init(loaded: LoadedVector, source: VectorSource?) {
    id = loaded.vector.id
    self.loaded = loaded
    self.source = source
  }

  init(problems: [VectorError]) {
    id = problems.first?.vectorID ?? problems.first?.file ?? "?"
    self.problems = problems
    kind = .vectorFile
  }

  init(_ kind: VectorResult.Origin, id: String, problem: String) {
    self.id = id
    self.problem = problem
    self.kind = kind
  }

  /// The origin of a case that is not a vector, which decides its report area: its kind, but that an unreadable waiver
  /// file is reported with the waivers (`waivers`), as an unmatched waiver is.
  var problemOrigin: VectorResult.Origin { kind == .waiverFile ? .waiver : kind }

  /// The vector id, as Swift Testing displays the case.
  public var testDescription: String { id }

  /// Encodes the case as its vector id, so Swift Testing (and Xcode) can run this one case again.
  public func encodeTestArgument(to encoder: some Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(id)
  }
}
