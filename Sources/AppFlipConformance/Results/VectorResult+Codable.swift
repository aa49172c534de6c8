extension VectorResult {
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
    if status == .error { origin = Origin(reportArea: area) }
    isNotRun = status == .skipped && message.hasPrefix("not run: ")
  }
}
