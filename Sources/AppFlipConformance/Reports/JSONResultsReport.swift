import AppFlip
import Foundation

/// Writes a run as a versioned, machine-readable JSON document (schema: `Docs/results.schema.json`).
///
/// The document pins the suite's name and version, names the implementation and the configuration, and lists every
/// vector with its status and, field by field, what was expected against what the implementation did. Output is
/// deterministic (sorted keys, results in run order) and written atomically; the document decodes again, so the
/// results of shards can be merged.
public enum JSONResultsReport {
  /// The `format` every results document carries.
  package static let format = "appflip-conformance-results"
  /// The version of the document's layout; a reader refuses a newer one.
  package static let formatVersion = 1

  /// Decodes a document, refusing another format or a newer format version.
  package static func decode(_ data: Data) throws -> Document {
    try JSONDecoder().decode(Document.self, from: data)
  }

  /// Reads a results file (through `InputFile`, as large as a JUnit report may be).
  package static func read(from url: URL) throws -> Document {
    try decode(
      InputFile.read(url.path, as: InputFile.Kind(name: "a JSON results file", limit: InputFile.Kind.junit.limit)))
  }

  /// Writes the results of a run atomically, creating the folder if needed.
  public static func write(
    _ results: [VectorResult], implementation: Document.Implementation, configuration: PartnerConfiguration,
    startedAt: Date, duration: Double? = nil, to url: URL
  ) throws {
    let document = Document(
      results: results, implementation: implementation, configuration: configuration, startedAt: startedAt,
      duration: duration)
    try ReportFile.write(ReportFile.json(document), to: url.path)
  }

  /// Seconds rounded to the microsecond, never negative.
  static func microseconds(_ seconds: Double) -> Double {
    guard seconds.isFinite else { return 0 }
    return (max(0, seconds) * 1_000_000).rounded() / 1_000_000
  }
}
