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

  /// A results document.
  public struct Document: Sendable, Hashable, Codable {
    /// The suite that wrote the document.
    package struct Suite: Sendable, Hashable, Codable {
      /// The suite's name.
      package var name: String
      /// The suite's version.
      package var version: String

      /// Creates a suite entry; the defaults are this suite.
      package init(name: String = SuiteInfo.name, version: String = SuiteInfo.version) {
        self.name = name
        self.version = version
      }
    }

    /// The implementation under test.
    public struct Implementation: Sendable, Hashable, Codable {
      /// Its name, e.g. the adapter's name.
      public var name: String
      /// Its version, when known.
      public var version: String?
      /// Its language, when known.
      public var language: String?

      /// Creates an implementation entry.
      public init(name: String, version: String? = nil, language: String? = nil) {
        self.name = name
        self.version = version
        self.language = language
      }
    }

    /// The partner configuration the vectors were rendered with, in the configuration file's field names.
    package struct Configuration: Sendable, Hashable, Codable {
      /// Google's client id.
      package var clientId: String
      /// The app's App Flip universal link.
      package var universalLink: String
      /// The redirect allow-list.
      package var allowedRedirectUris: [String]
      /// Whether the configuration allowed URLs that are not Google's (`allowUnlistedRedirectUris`); absent when not.
      package var allowUnlistedRedirectUris: Bool?
      /// The allowed URLs that are not one of Google's twelve, which that option let in; absent when none.
      package var unlistedRedirectUris: [String]?

      /// Creates the entry of a partner configuration.
      package init(_ configuration: PartnerConfiguration) {
        clientId = configuration.clientID
        universalLink = configuration.universalLink
        allowedRedirectUris = configuration.allowList.urls
        allowUnlistedRedirectUris = configuration.allowsUnlistedRedirectURIs ? true : nil
        let unlisted = configuration.unlistedRedirectURIs
        unlistedRedirectUris = unlisted.isEmpty ? nil : unlisted
      }

      /// The partner configuration this entry stands for.
      package var partnerConfiguration: PartnerConfiguration {
        PartnerConfiguration(
          clientID: clientId, universalLink: universalLink, allowList: RedirectAllowList(allowedRedirectUris),
          allowsUnlistedRedirectURIs: allowUnlistedRedirectUris ?? false)
      }
    }

    /// The counts of the run, by status.
    package struct Summary: Sendable, Hashable, Codable {
      /// Vectors that passed.
      package var passed: Int
      /// Vectors that failed.
      package var failed: Int
      /// Vectors with SHOULD-level findings only.
      package var warnings: Int
      /// Vectors that did not apply.
      package var skipped: Int
      /// Vectors that could not be judged.
      package var errors: Int
      /// Vectors that passed although a waiver expects them to fail (stale waivers); 0 in documents written before.
      package var stale: Int
      /// Endpoint refusals that prove nothing without a proven session (AF-EP-5).
      package var inconclusive: Int
      /// All vectors counted.
      package var total: Int

      /// Creates the counts of a run summary.
      package init(_ summary: RunSummary) {
        passed = summary.passed
        failed = summary.failed
        warnings = summary.warnings
        skipped = summary.skipped
        errors = summary.errors
        stale = summary.stale
        inconclusive = summary.inconclusive
        total = summary.total
      }

      enum CodingKeys: String, CodingKey {
        case passed, failed, warnings, skipped, errors, stale, inconclusive, total
      }

      /// Decodes the counts; `stale` and `inconclusive` are 0 when absent.
      package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        passed = try container.decode(Int.self, forKey: .passed)
        failed = try container.decode(Int.self, forKey: .failed)
        warnings = try container.decode(Int.self, forKey: .warnings)
        skipped = try container.decode(Int.self, forKey: .skipped)
        errors = try container.decode(Int.self, forKey: .errors)
        stale = try container.decodeIfPresent(Int.self, forKey: .stale) ?? 0
        inconclusive = try container.decodeIfPresent(Int.self, forKey: .inconclusive) ?? 0
        total = try container.decode(Int.self, forKey: .total)
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

    /// One vector's result; `findings` holds, field by field, what was expected against what happened.
    package struct Result: Sendable, Hashable, Codable {
      /// The vector's id.
      package var id: String
      /// The vector's area.
      package var area: String
      /// The file the vector came from.
      package var file: String
      /// The vector's level.
      package var level: Level
      /// The vector's spec references.
      package var spec: [String]
      /// The vector's tags.
      package var tags: [String]
      /// The vector's bug classes.
      package var flags: [String]
      /// How the vector ended.
      package var status: Status
      /// Why the vector was skipped or errored; empty otherwise.
      package var message: String
      /// What the implementation wrote to stderr, when captured.
      package var diagnostics: String
      /// Seconds the vector took, to the microsecond.
      package var duration: Double
      /// The checks that did not hold; empty for a vector that passed.
      package var findings: [Finding]

      /// Creates the entry of a result.
      package init(_ result: VectorResult) {
        id = result.id
        area = result.area
        file = result.file
        level = result.level
        spec = result.spec
        tags = result.tags
        flags = result.flags
        status = result.status
        // Messages are bounded like every report's; findings keep their full expected and actual values.
        message = JUnitReport.bounded(result.message, JUnitReport.maxText)
        diagnostics = JUnitReport.bounded(result.diagnostics, JUnitReport.maxText)
        duration = JSONResultsReport.microseconds(result.duration)
        findings = result.findings
      }

      /// The result this entry stands for.
      package var vectorResult: VectorResult {
        VectorResult(
          id: id, area: area, file: file, level: level, spec: spec, tags: tags, flags: flags, status: status,
          findings: findings, message: message, diagnostics: diagnostics, duration: duration)
      }
    }

    /// Always `appflip-conformance-results`.
    package var format: String
    /// The layout's version (`JSONResultsReport.formatVersion` when written).
    package var formatVersion: Int
    /// The suite that wrote the document.
    package var suite: Suite
    /// The implementation under test.
    package var implementation: Implementation
    /// The configuration the vectors were rendered with.
    package var configuration: Configuration
    /// When the run started, to the second (ISO 8601, UTC, in the JSON).
    package var startedAt: Date
    /// Seconds the run took, to the microsecond.
    package var duration: Double
    /// The counts, by status.
    package var summary: Summary
    /// Every vector's result, in run order.
    package var results: [Result]
    /// Why the run stopped early, if it did; such a run is never a pass.
    package var interrupted: Interruption?

    /// Creates the document of a run; `duration` defaults to the sum of the vectors' durations; `stopReason` is why
    /// the run stopped early, if it did.
    package init(
      results: [VectorResult], implementation: Implementation, configuration: PartnerConfiguration,
      startedAt: Date, duration: Double? = nil, stopReason: String? = nil
    ) {
      interrupted = stopReason.map { Interruption(reason: $0, notRun: results.filter(\.isNotRun).count) }
      format = JSONResultsReport.format
      formatVersion = JSONResultsReport.formatVersion
      suite = Suite()
      self.implementation = implementation
      self.configuration = Configuration(configuration)
      self.startedAt = Date(timeIntervalSince1970: startedAt.timeIntervalSince1970.rounded(.down))
      self.duration = JSONResultsReport.microseconds(duration ?? results.map(\.duration).reduce(0, +))
      summary = Summary(RunSummary(results))
      self.results = results.map(Result.init)
    }

    /// The results as the runner's values, e.g. to render them again or merge shards.
    package var vectorResults: [VectorResult] { results.map(\.vectorResult) }

    enum CodingKeys: String, CodingKey, CaseIterable {
      case format, formatVersion, suite, implementation, configuration, startedAt, duration, summary, results
      case interrupted
    }

    /// Decodes a document, refusing another format or a newer format version.
    public init(from decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: CodingKeys.self)
      format = try container.decode(String.self, forKey: .format)
      guard format == JSONResultsReport.format else {
        throw DecodingError.dataCorruptedError(
          forKey: .format, in: container,
          debugDescription: "is \"\(format)\"; an appflip-conformance results file has \"\(JSONResultsReport.format)\"")
      }
      formatVersion = try container.decode(Int.self, forKey: .formatVersion)
      guard (1...JSONResultsReport.formatVersion).contains(formatVersion) else {
        throw DecodingError.dataCorruptedError(
          forKey: .formatVersion, in: container,
          debugDescription: "is \(formatVersion); this suite reads 1 to \(JSONResultsReport.formatVersion)")
      }
      suite = try container.decode(Suite.self, forKey: .suite)
      implementation = try container.decode(Implementation.self, forKey: .implementation)
      configuration = try container.decode(Configuration.self, forKey: .configuration)
      let stamp = try container.decode(String.self, forKey: .startedAt)
      guard let date = JSONResultsReport.date(stamp) else {
        throw DecodingError.dataCorruptedError(
          forKey: .startedAt, in: container, debugDescription: "\"\(stamp)\" is not an ISO 8601 date and time")
      }
      startedAt = date
      duration = try container.decode(Double.self, forKey: .duration)
      summary = try container.decode(Summary.self, forKey: .summary)
      results = try container.decode([Result].self, forKey: .results)
      interrupted = try container.decodeIfPresent(Interruption.self, forKey: .interrupted)
    }

    /// Encodes the document, `startedAt` as an ISO 8601 string.
    public func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(format, forKey: .format)
      try container.encode(formatVersion, forKey: .formatVersion)
      try container.encode(suite, forKey: .suite)
      try container.encode(implementation, forKey: .implementation)
      try container.encode(configuration, forKey: .configuration)
      try container.encode(JSONResultsReport.stamp(startedAt), forKey: .startedAt)
      try container.encode(duration, forKey: .duration)
      try container.encode(summary, forKey: .summary)
      try container.encode(results, forKey: .results)
      try container.encodeIfPresent(interrupted, forKey: .interrupted)
    }
  }

  /// The document's JSON: pretty-printed, keys sorted, ending in a newline; the same document gives the same bytes.
  package static func encode(_ document: Document) throws -> Data {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    return try encoder.encode(document) + Data("\n".utf8)
  }

  /// Decodes a document, refusing another format or a newer format version.
  package static func decode(_ data: Data) throws -> Document {
    try JSONDecoder().decode(Document.self, from: data)
  }

  /// Reads a results file.
  package static func read(from url: URL) throws -> Document {
    try decode(Data(contentsOf: url))
  }

  /// Writes the document: a regular file atomically (the folder created if needed), a FIFO or device written through.
  package static func write(_ document: Document, to url: URL) throws {
    try ReportFile.write(encode(document), to: url.path)
  }

  /// Writes the results of a run atomically, creating the folder if needed.
  public static func write(
    _ results: [VectorResult], implementation: Document.Implementation, configuration: PartnerConfiguration,
    startedAt: Date, duration: Double? = nil, to url: URL
  ) throws {
    try write(
      Document(
        results: results, implementation: implementation, configuration: configuration, startedAt: startedAt,
        duration: duration),
      to: url)
  }

  /// Seconds rounded to the microsecond, never negative.
  static func microseconds(_ seconds: Double) -> Double {
    guard seconds.isFinite else { return 0 }
    return (max(0, seconds) * 1_000_000).rounded() / 1_000_000
  }

  /// `2025-01-02T03:04:05Z`.
  static func stamp(_ date: Date) -> String {
    Timestamp.string(date)
  }

  /// Reads an ISO 8601 date and time, with or without fractional seconds.
  static func date(_ string: String) -> Date? {
    Timestamp.date(string)
  }
}
