import Foundation

/// A partner's waiver file: the vectors expected to fail, each with a reason (`--waivers FILE`).
///
/// ```json
/// {"schemaVersion": 1, "waivers": [{"id": "redirect-uri/case/*", "reason": "Host compare folds case; fix in 2.3.", "issue": "https://…"}]}
/// ```
public struct WaiverFile: Sendable, Hashable, Codable {
  /// The format version.
  package var schemaVersion: Int
  /// The waivers, in file order.
  public var waivers: [Waiver]

  /// Creates a waiver file.
  public init(waivers: [Waiver]) {
    schemaVersion = 1
    self.waivers = waivers
  }

  enum CodingKeys: String, CodingKey, CaseIterable {
    case schemaVersion, waivers
  }

  /// Decodes strictly: a field the format does not define is refused.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.strictContainer(keyedBy: CodingKeys.self)
    schemaVersion = try container.decode(Int.self, forKey: .schemaVersion)
    guard schemaVersion == 1 else {
      throw DecodingError.dataCorruptedError(
        forKey: .schemaVersion, in: container, debugDescription: "only schemaVersion 1 is supported")
    }
    waivers = try container.decode([Waiver].self, forKey: .waivers)
  }

  /// Reads a waiver file, with an error that names the file and field.
  public static func load(_ url: URL) throws(VectorError) -> WaiverFile {
    try VectorLoader.decodeFile(WaiverFile.self, at: url, as: .waivers)
  }

  /// Waivers for every result that failed or warned, for adopting the suite on an existing handler.
  ///
  /// Each id is the result's id escaped (`VectorFilter.escaped`), so it matches that vector only, never as a glob.
  /// Errors get no waiver: a waiver never hides an error (the implementation did not start, crashed or timed out, or a
  /// vector file is bad), so one would only mislead.
  package static func adopting(_ results: [VectorResult], date: String) -> WaiverFile {
    WaiverFile(waivers: results.filter(\.isWaivable).map { adopted($0, date: date) })
  }

  /// The waiver written for one failing result: its escaped id and a reason naming each rule it broke at the level
  /// that decided its status (its MUST findings when it failed, its SHOULD findings when it warned or a strict run
  /// failed it), with the level and field, e.g. `failed: AF-EP-4 (MUST) at reply.code`; from a JUnit report, whose
  /// results carry no findings, the failure's own words.
  static func adopted(_ result: VectorResult, date: String) -> Waiver {
    let counted: [Finding]
    let musts = result.findings.filter { $0.level == .must }
    if result.status == .failed, !musts.isEmpty {
      counted = musts
    } else {
      counted = result.findings.filter { $0.level == .should }
    }
    var named: [String] = []
    for finding in counted {
      let name = "\(finding.rule) (\(finding.level.rawValue.uppercased())) at \(finding.field)"
      if !named.contains(name) { named.append(name) }
    }
    let why = named.isEmpty ? " (\(result.message.prefix { $0 != "\n" }))" : ": " + named.joined(separator: ", ")
    return Waiver(id: VectorFilter.escaped(result.id), reason: "Adopted on \(date): \(result.status.rawValue)\(why).")
  }

  /// Applies the waivers: a waived failure or warning becomes skipped with its reason; a waived vector that passes
  /// becomes `stale`; an error stays an error (a waiver never hides one); a waiver that matches no loaded vector is an
  /// error result.
  ///
  /// - Parameters:
  ///   - results: the run's results.
  ///   - loadedIDs: every loaded vector id (before filters and shards), to tell an unmatched waiver from an unselected one.
  ///   - file: the waiver file's path, for messages.
  public func apply(to results: [VectorResult], loadedIDs: [String], file: String) -> [VectorResult] {
    results.map { apply(to: $0, file: file) }
      + unmatched(loadedIDs: loadedIDs).map { waiver in
        VectorResult(id: "waiver \(waiver.id)", origin: .waiver, file: file, message: Self.unmatched(waiver, in: file))
      }
  }

  /// The sentence for a waiver of `file` that matches no loaded vector.
  package static func unmatched(_ waiver: Waiver, in file: String) -> String {
    "\(file): waiver \"\(waiver.id)\" matches no vector; fix the id or remove the waiver."
  }

  /// One result with its waiver applied, if one covers it.
  package func apply(to result: VectorResult, file: String) -> VectorResult {
    guard let waiver = waivers.first(where: { $0.matches(result.id) }) else { return result }
    var result = result
    switch result.status {
    case .failed, .warning:
      result.message = "waived: \(waiver.reason)" + (waiver.issue.map { " (\($0))" } ?? "")
      result.status = .skipped
    case .error:
      let note =
        "waiver \"\(waiver.id)\" in \(file) does not apply: a waiver never hides an error; fix the error first."
      result.message = result.message.isEmpty ? note : result.message + "\n" + note
    case .passed:
      result.status = .stale
      result.message =
        "stale waiver: \"\(waiver.id)\" in \(file) expects this vector to fail, but it passes; remove the waiver."
    case .skipped, .stale, .inconclusive:
      // An inconclusive result proves nothing either way: a waiver neither hides it nor goes stale on it.
      break
    }
    return result
  }

  /// The waivers that match none of these vector ids.
  public func unmatched(loadedIDs: [String]) -> [Waiver] {
    waivers.filter { waiver in !loadedIDs.contains(where: waiver.matches) }
  }
}
