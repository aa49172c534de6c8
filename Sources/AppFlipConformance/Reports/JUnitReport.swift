import Foundation

/// Writes results as JUnit XML: one `<testsuite>` per area, one `<testcase>` per vector, valid against Jenkins' junit-10 schema.
///
/// Failures carry the field-by-field diff; warnings stay visible in `<system-out>`; spec references, tags and
/// level appear in each test case's output and as suite properties named `ID.spec`, `ID.tags`, `ID.level`, `ID.status`;
/// `properties` adds run-wide ones to every suite (`run.interrupted`, `configuration.unlistedRedirectUris`).
public enum JUnitReport {
  /// The XML for these results.
  public static func render(
    _ results: [VectorResult], implementation: String, timestamp: Date = Date(),
    properties: [(String, String)] = []
  ) -> String {
    render(results, implementation: implementation, timestamp: timestamp, properties: properties) {
      testcase(results[$0])
    }
  }

  /// The XML for these results, taking the `<testcase>` element of the result at each index from `testcase` (which may
  /// cache them; results may share an id, as a duplicate-id problem shares its vector's).
  public static func render(
    _ results: [VectorResult], implementation: String, timestamp: Date = Date(),
    properties runProperties: [(String, String)] = [], testcase: (Int) -> String
  ) -> String {
    var areas: [String] = []
    var byArea: [String: [Int]] = [:]
    for (index, result) in results.enumerated() {
      if byArea[result.area] == nil { areas.append(result.area) }
      byArea[result.area, default: []].append(index)
    }
    let stamp = ISO8601DateFormatter().string(from: timestamp).replacingOccurrences(of: "Z", with: "")
    let all = RunSummary(results)
    var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
    xml +=
      "<testsuites name=\"\(SuiteInfo.name)\" tests=\"\(all.total)\" failures=\"\(all.failed + all.stale)\" errors=\"\(all.errors)\" time=\"\(seconds(results.map(\.duration).reduce(0, +)))\">\n"
    for area in areas {
      let indices = byArea[area]!
      let cases = indices.map { results[$0] }
      let summary = RunSummary(cases)
      xml +=
        "  <testsuite name=\"\(XMLText.attribute(area))\" tests=\"\(summary.total)\" failures=\"\(summary.failed + summary.stale)\" errors=\"\(summary.errors)\" skipped=\"\(summary.skipped + summary.inconclusive)\" time=\"\(seconds(cases.map(\.duration).reduce(0, +)))\" timestamp=\"\(stamp)\">\n"
      xml += "    <properties>\n"
      var properties = [
        ("suite.version", SuiteInfo.version), ("implementation", implementation),
        ("warnings", String(summary.warnings)), ("inconclusive", String(summary.inconclusive)),
      ]
      properties += runProperties
      for result in cases {
        properties += [
          ("\(result.id).spec", result.spec.joined(separator: "; ")),
          ("\(result.id).tags", result.tags.joined(separator: ", ")),
          ("\(result.id).level", result.level.rawValue), ("\(result.id).status", result.status.rawValue),
        ]
      }
      for (name, value) in properties {
        xml +=
          "      <property name=\"\(XMLText.attribute(bounded(name, maxMessage)))\" value=\"\(XMLText.attribute(bounded(value, maxMessage)))\"/>\n"
      }
      xml += "    </properties>\n"
      for index in indices { xml += testcase(index) }
      xml += "  </testsuite>\n"
    }
    xml += "</testsuites>\n"
    return xml
  }

  /// Writes the report atomically (a temporary file renamed into place), creating the folder if needed.
  public static func write(_ results: [VectorResult], implementation: String, to url: URL) throws {
    try write(render(results, implementation: implementation), to: url)
  }

  /// Writes rendered XML: a regular file atomically (a temporary file renamed into place, the folder created if
  /// needed), a FIFO or device written through.
  public static func write(_ xml: String, to url: URL) throws {
    try ReportFile.write(Data(xml.utf8), to: url.path)
  }

  /// The `<testcase>` element of one result.
  public static func testcase(_ result: VectorResult) -> String {
    var xml =
      "    <testcase classname=\"appflip.\(XMLText.attribute(result.area))\" name=\"\(XMLText.attribute(bounded(result.id, maxMessage)))\" time=\"\(seconds(result.duration))\">\n"
    let summaryMessage =
      result.findings.isEmpty
      ? result.message
      : result.findings.map { "\($0.rule) \($0.field)" }.joined(separator: "; ")
    switch result.status {
    case .failed:
      let type = result.findings.first { $0.level == .must }?.rule ?? result.findings.first?.rule ?? "failure"
      xml +=
        "      <failure type=\"\(XMLText.attribute(type))\" message=\"\(XMLText.attribute(bounded(summaryMessage, maxMessage)))\">\(XMLText.content(bounded(result.details, maxText)))</failure>\n"
    case .stale:
      xml +=
        "      <failure type=\"stale-waiver\" message=\"\(XMLText.attribute(bounded(firstLine(result.message), maxMessage)))\">\(XMLText.content(bounded(result.details, maxText)))</failure>\n"
    case .error:
      xml +=
        "      <error type=\"\(errorType(result.origin))\" message=\"\(XMLText.attribute(bounded(firstLine(result.message), maxMessage)))\">\(XMLText.content(bounded(result.details, maxText)))</error>\n"
    case .skipped:
      xml += "      <skipped message=\"\(XMLText.attribute(bounded(result.message, maxMessage)))\"/>\n"
    case .inconclusive:
      // junit-10 has no such outcome; skipped with the word in its message, so no tool counts it as passed.
      xml +=
        "      <skipped message=\"\(XMLText.attribute(bounded("inconclusive: " + firstLine(result.message), maxMessage)))\"/>\n"
    case .passed, .warning:
      break
    }
    var out = [
      "level: \(result.level.rawValue)", "spec: \(result.spec.joined(separator: "; "))",
      "tags: \(result.tags.joined(separator: ", "))", "file: \(result.file)",
    ]
    if result.status == .warning { out.append("WARNING (SHOULD): \(summaryMessage)\n\(result.details)") }
    xml += "      <system-out>\(XMLText.content(bounded(out.joined(separator: "\n"), maxText)))</system-out>\n"
    if !result.diagnostics.isEmpty {
      xml += "      <system-err>\(XMLText.content(bounded(result.diagnostics, maxText)))</system-err>\n"
    }
    return xml + "    </testcase>\n"
  }

  /// The most characters of a message attribute; longer ones show their head and tail and their length.
  static let maxMessage = 1_000
  /// The most characters of a text block (details, output, stderr) in one test case.
  static let maxText = 32_000

  /// Text cut to its head and tail when longer than `limit`, so a report stays bounded whatever the input.
  static func bounded(_ text: String, _ limit: Int) -> String { Quoted.cut(text, limit: limit) }

  /// Seconds with at most three decimals, as the junit-10 schema's SUREFIRE_TIME allows.
  static func seconds(_ value: Double) -> String {
    String(format: "%.3f", max(0, value))
  }

  /// The `type` of an `<error>`: a bad vector, a bad configuration or waiver file, or the implementation's error.
  static func errorType(_ origin: VectorResult.Origin) -> String {
    switch origin {
    case .vectorFile: "invalid-vector"
    case .configurationFile, .waiverFile: "invalid-file"
    case .vector, .waiver, .configuration, .selection: "implementation-error"
    }
  }

  private static func firstLine(_ string: String) -> String {
    String(string.prefix { $0 != "\n" })
  }
}
