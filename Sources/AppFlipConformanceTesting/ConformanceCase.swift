import AppFlipConformance
import Testing

/// One vector (or one unusable vector file, or one problem of the setup) as a Swift Testing case, displayed by its
/// vector id and re-runnable by it.
public struct ConformanceCase: Sendable, Hashable, CustomTestStringConvertible, CustomTestArgumentEncodable {
  /// The vector's id, or the file's path when the file could not be read.
  public let id: String
  /// The vector, when it loaded.
  var loaded: LoadedVector?
  /// The case's result before it runs: a vector's as not run, else the problem's result (an unusable vector file's, or
  /// a problem of the setup's), which is its result once run.
  var result: VectorResult
  /// What the case stands for: a vector, an unusable vector file, an unreadable waiver file (`waiverFile`), a waiver
  /// that matches no loaded vector (`waiver`), a problem of the configuration or the selection, or reports another
  /// harness already writes (`harness`).
  var kind = VectorResult.Origin.vector
  /// The case's position in `ConformanceHarness.cases`, which keeps it apart from a case with the same id.
  var index = 0
  /// Where the vector is written, when it is the partner's own (issues point there); `nil` for a bundled one.
  var source: VectorSource?

  init(loaded: LoadedVector, source: VectorSource?) {
    id = loaded.vector.id
    self.loaded = loaded
    result = VectorResult(loaded, status: .skipped)
    self.source = source
  }

  /// The case of an unusable vector file, whose result is `Runner.results(for:)`'s.
  init(vectorFile result: VectorResult) {
    id = result.id
    self.result = result
    kind = .vectorFile
  }

  /// The case of a problem of the setup, of `file` (the waiver file's, for a waiver); an unreadable waiver file is
  /// reported with the waivers (`waiver`), as an unmatched waiver is.
  init(_ kind: VectorResult.Origin, id: String, file: String = "", problem: String) {
    self.id = id
    result = VectorResult(id: id, origin: kind == .waiverFile ? .waiver : kind, file: file, message: problem)
    self.kind = kind
  }

  /// The vector id, as Swift Testing displays the case.
  public var testDescription: String { id }

  /// Encodes the case as its vector id, so Swift Testing (and Xcode) can run this one case again.
  public func encodeTestArgument(to encoder: some Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(id)
  }
}
