/// One expected failure a partner has accepted for now: vector ids by glob, why, and where it is tracked.
public struct Waiver: Sendable, Hashable, Codable {
  /// A vector id or glob (`*`, `?`), e.g. `redirect-uri/case/*`.
  public var id: String
  /// Why the failure is accepted, in one sentence.
  public var reason: String
  /// A link to the issue that tracks the fix, if any.
  public var issue: String?

  /// Creates a waiver.
  public init(id: String, reason: String, issue: String? = nil) {
    self.id = id
    self.reason = reason
    self.issue = issue
  }

  enum CodingKeys: String, CodingKey, CaseIterable {
    case id, reason, issue
  }

  /// Decodes strictly: a field the format does not define is refused.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.strictContainer(keyedBy: CodingKeys.self)
    id = try container.decode(String.self, forKey: .id)
    reason = try container.decode(String.self, forKey: .reason)
    issue = try container.decodeIfPresent(String.self, forKey: .issue)
    if reason.trimmingCharacters(in: .whitespaces).isEmpty {
      throw DecodingError.dataCorruptedError(
        forKey: .reason, in: container, debugDescription: "say why the failure is accepted")
    }
  }

  /// Whether this waiver covers a vector id.
  package func matches(_ vectorID: String) -> Bool {
    VectorFilter.glob(id, matches: vectorID)
  }
}
