/// The judged result of one vector.
public struct VectorResult: Sendable, Hashable, Codable {
  /// The vector's id.
  public var id: String
  /// The area the vector belongs to (its file's `area`), or the area derived from a result's `origin`.
  public var area: String
  /// What the result stands for: a vector, or the file or setting that kept vectors from running.
  package var origin = Origin.vector
  /// The file the vector came from, as given to the loader.
  public var file: String
  /// The vector's level.
  public var level: Level
  /// The vector's spec references.
  public var spec: [String]
  /// The vector's tags.
  public var tags: [String]
  /// The vector's bug classes (`Vectors/flags.json`), e.g. `open-redirect`.
  public var flags: [String]
  /// How the vector ended.
  public var status: Status
  /// The checks that did not hold, field by field.
  public var findings: [Finding]
  /// Why the vector was skipped or errored; empty otherwise.
  public var message: String
  /// What the implementation wrote to stderr while this vector ran, when the adapter captures it.
  public var diagnostics: String
  /// Wall-clock seconds the vector took.
  public var duration: Double
  /// Whether this vector was left out because the run stopped early (skipped, "not run: …").
  package var isNotRun = false
  /// The rules the vector cites (RULES.md ids and the partner's own), for the reports to describe; not in the JSON
  /// results, which name the rules of their findings.
  package var rules: [String]
  /// What a partner needs to act on a result that did not pass (its link, outcome, what the implementation did, the
  /// command that runs it again); `nil` for a result that passed or was skipped, and for a file or setting.
  package var evidence: Evidence?

  /// Creates the result of a vector.
  package init(
    id: String, area: String, file: String, level: Level, spec: [String] = [], tags: [String] = [],
    flags: [String] = [], status: Status, findings: [Finding] = [], message: String = "", diagnostics: String = "",
    duration: Double = 0, rules: [String] = []
  ) {
    self.id = id
    self.area = area
    self.file = file
    self.level = level
    self.spec = spec
    self.tags = tags
    self.flags = flags
    self.status = status
    self.findings = findings
    self.message = message
    self.diagnostics = diagnostics
    self.duration = duration
    self.rules = rules
  }

  /// Creates the error result of a file or setting that kept vectors from running; its area comes from `origin`.
  package init(id: String, origin: Origin, file: String, message: String) {
    self.init(id: id, area: origin.rawValue, file: file, level: .must, status: .error, message: message)
    self.origin = origin
  }

  /// The JSON names of a result's fields (the results document, `Docs/results.schema.json`), each encoded once
  /// under its name (`evidence` only when there is one); the origin, "not run" and the rules are not written.
  enum CodingKeys: String, CodingKey {
    case id, area, file, level, spec, tags, flags, status, findings, message, diagnostics, duration, evidence
  }

  /// Decodes a result; every field is required but `evidence`.
  ///
  /// The format has no field for a result's origin or for "not run", so reading a document back infers them from what
  /// the writer put there: an error in one of the setup areas (`vector-files`, `waivers`, …) has that origin, and a
  /// skipped result whose message starts "not run: " was not run.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    self.init(
      id: try container.decode(String.self, forKey: .id), area: try container.decode(String.self, forKey: .area),
      file: try container.decode(String.self, forKey: .file), level: try container.decode(Level.self, forKey: .level),
      spec: try container.decode([String].self, forKey: .spec),
      tags: try container.decode([String].self, forKey: .tags),
      flags: try container.decode([String].self, forKey: .flags),
      status: try container.decode(Status.self, forKey: .status),
      findings: try container.decode([Finding].self, forKey: .findings),
      message: try container.decode(String.self, forKey: .message),
      diagnostics: try container.decode(String.self, forKey: .diagnostics),
      duration: try container.decode(Double.self, forKey: .duration))
    evidence = try container.decodeIfPresent(Evidence.self, forKey: .evidence)
    if status == .error { origin = Origin(rawValue: area) ?? .vector }
    isNotRun = status == .skipped && message.hasPrefix("not run: ")
  }
}
