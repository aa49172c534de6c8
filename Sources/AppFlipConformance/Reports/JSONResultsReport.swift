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

extension JSONResultsReport {
  /// A results document: the run's own values (`VectorResult`, `RunSummary`, `PartnerConfiguration`), each encoding
  /// itself, so a field is written once.
  public struct Document: Sendable, Hashable, Codable {
    /// The suite that wrote the document.
    package var suite: Suite
    /// The implementation under test.
    package var implementation: Implementation
    /// The configuration the vectors were rendered with, written in the configuration file's field names (and the
    /// allowed URLs that are not Google's, `unlistedRedirectUris`, when there are any).
    package var configuration: PartnerConfiguration
    /// When the run started, to the second (ISO 8601, UTC, in the JSON).
    package var startedAt: Date
    /// Seconds the run took, to the microsecond.
    package var duration: Double
    /// The counts, by status.
    package var summary: RunSummary
    /// Every vector's result, in run order: messages bounded like every report's, durations to the microsecond;
    /// findings keep their full expected and actual values.
    package var results: [VectorResult]
    /// Why the run stopped early, if it did; such a run is never a pass.
    package var interrupted: Interruption?
    /// The vectors the run selected (their count and digest) and the shard of them it ran; `nil` when not known (a
    /// document written before 0.2.0).
    package var selection: RunSelection?
    /// Whether SHOULD findings failed (`--strict`); written only when true.
    package var strict: Bool
    /// The partner's own flags (its `flags.json`) the vectors were loaded with, so a merge's Markdown summary
    /// describes them as the run's did; written only when there are some.
    package var flags: [String: FlagRegistry.Flag]

    /// Creates the document of a run; `duration` defaults to the sum of the vectors' durations; `stopReason` is why
    /// the run stopped early, if it did.
    package init(
      results: [VectorResult], implementation: Implementation, configuration: PartnerConfiguration,
      startedAt: Date, duration: Double? = nil, stopReason: String? = nil, selection: RunSelection? = nil,
      strict: Bool = false, flags: [String: FlagRegistry.Flag] = [:]
    ) {
      self.selection = selection
      self.strict = strict
      self.flags = flags
      interrupted = stopReason.map { Interruption(reason: $0, notRun: results.filter(\.isNotRun).count) }
      suite = Suite()
      self.implementation = implementation
      self.configuration = configuration
      self.startedAt = Date(timeIntervalSince1970: startedAt.timeIntervalSince1970.rounded(.down))
      self.duration = JSONResultsReport.microseconds(duration ?? results.map(\.duration).reduce(0, +))
      summary = RunSummary(results)
      self.results = results.map(Self.reported)
    }

    /// A result as the document keeps it: message and diagnostics bounded, the duration to the microsecond.
    static func reported(_ result: VectorResult) -> VectorResult {
      var result = result
      result.message = Quoted.cut(result.message, limit: JUnitReport.maxText)
      result.diagnostics = Quoted.cut(result.diagnostics, limit: JUnitReport.maxText)
      result.duration = JSONResultsReport.microseconds(result.duration)
      return result
    }

    enum CodingKeys: String, CodingKey, CaseIterable {
      case format, formatVersion, suite, implementation, configuration, startedAt, duration, summary, results
      case interrupted, vectors, shard, strict, flags
    }

    /// The names of the selected vectors' count and digest, under `vectors`.
    enum SelectionKeys: String, CodingKey {
      case count, digest
    }

    /// The configuration's field the document derives and writes for readers; it is recomputed on reading.
    enum DerivedKeys: String, CodingKey {
      case unlistedRedirectUris
    }

    /// Decodes a document, refusing another format or a newer format version.
    public init(from decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: CodingKeys.self)
      let format = try container.decode(String.self, forKey: .format)
      guard format == JSONResultsReport.format else {
        throw DecodingError.dataCorruptedError(
          forKey: .format, in: container,
          debugDescription: "is \"\(format)\"; an appflip-conformance results file has \"\(JSONResultsReport.format)\"")
      }
      let formatVersion = try container.decode(Int.self, forKey: .formatVersion)
      guard (1...JSONResultsReport.formatVersion).contains(formatVersion) else {
        throw DecodingError.dataCorruptedError(
          forKey: .formatVersion, in: container,
          debugDescription: "is \(formatVersion); this suite reads 1 to \(JSONResultsReport.formatVersion)")
      }
      suite = try container.decode(Suite.self, forKey: .suite)
      implementation = try container.decode(Implementation.self, forKey: .implementation)
      configuration = try PartnerConfiguration(
        from: container.superDecoder(forKey: .configuration), skipping: [DerivedKeys.unlistedRedirectUris.rawValue])
      let stamp = try container.decode(String.self, forKey: .startedAt)
      guard let date = Timestamp.date(stamp) else {
        throw DecodingError.dataCorruptedError(
          forKey: .startedAt, in: container, debugDescription: "\"\(stamp)\" is not an ISO 8601 date and time")
      }
      startedAt = date
      duration = try container.decode(Double.self, forKey: .duration)
      summary = try container.decode(RunSummary.self, forKey: .summary)
      results = try container.decode([VectorResult].self, forKey: .results)
      interrupted = try container.decodeIfPresent(Interruption.self, forKey: .interrupted)
      selection = nil
      if container.contains(.vectors) {
        let vectors = try container.nestedContainer(keyedBy: SelectionKeys.self, forKey: .vectors)
        selection = RunSelection(
          count: try vectors.decode(Int.self, forKey: .count), digest: try vectors.decode(String.self, forKey: .digest),
          shard: try container.decodeIfPresent(RunSelection.Shard.self, forKey: .shard))
      }
      strict = try container.decodeIfPresent(Bool.self, forKey: .strict) ?? false
      flags = try container.decodeIfPresent([String: FlagRegistry.Flag].self, forKey: .flags) ?? [:]
    }

    /// Encodes the document in this suite's format version, `startedAt` as an ISO 8601 string.
    public func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(JSONResultsReport.format, forKey: .format)
      try container.encode(JSONResultsReport.formatVersion, forKey: .formatVersion)
      try container.encode(suite, forKey: .suite)
      try container.encode(implementation, forKey: .implementation)
      let configurationEncoder = container.superEncoder(forKey: .configuration)
      try configuration.encode(to: configurationEncoder)
      let unlisted = configuration.unlistedRedirectURIs
      if !unlisted.isEmpty {
        var derived = configurationEncoder.container(keyedBy: DerivedKeys.self)
        try derived.encode(unlisted, forKey: .unlistedRedirectUris)
      }
      try container.encode(Timestamp.string(startedAt), forKey: .startedAt)
      try container.encode(duration, forKey: .duration)
      try container.encode(summary, forKey: .summary)
      try container.encode(results, forKey: .results)
      try container.encodeIfPresent(interrupted, forKey: .interrupted)
      if let selection {
        var vectors = container.nestedContainer(keyedBy: SelectionKeys.self, forKey: .vectors)
        try vectors.encode(selection.count, forKey: .count)
        try vectors.encode(selection.digest, forKey: .digest)
        try container.encodeIfPresent(selection.shard, forKey: .shard)
      }
      if strict { try container.encode(true, forKey: .strict) }
      if !flags.isEmpty { try container.encode(flags, forKey: .flags) }
    }
  }
}

extension JSONResultsReport.Document {
  /// The implementation under test.
  public struct Implementation: Sendable, Hashable, Codable {
    /// Its name, e.g. the adapter's name.
    public var name: String
    /// Its version, when known.
    public var version: String?
    /// Its language, when known.
    public var language: String?

    /// Creates an implementation entry.
    package init(name: String, version: String? = nil, language: String? = nil) {
      self.name = name
      self.version = version
      self.language = language
    }
  }

  /// Why a run stopped before every selected vector ran: a signal (SIGINT, SIGTERM) or `--max-failures`.
  package struct Interruption: Sendable, Hashable, Codable {
    /// Why, e.g. `interrupted (SIGINT)` or `--max-failures 3 reached`.
    package var reason: String
    /// How many selected vectors did not run (reported as skipped, "not run").
    package var notRun: Int

    /// Creates the entry.
    package init(reason: String, notRun: Int) {
      self.reason = reason
      self.notRun = notRun
    }
  }

  /// The suite that wrote the document; the defaults are this suite.
  package struct Suite: Sendable, Hashable, Codable {
    /// The suite's name.
    package var name = SuiteInfo.name
    /// The suite's version.
    package var version = SuiteInfo.version
    /// The commit the suite was built from, or `unknown` (`SuiteInfo.commit`); absent in documents before 0.2.0.
    package var commit: String? = SuiteInfo.commit
  }
}
