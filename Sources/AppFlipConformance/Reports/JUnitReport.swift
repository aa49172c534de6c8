import Foundation

/// Writes results as JUnit XML: one `<testsuite>` per area, one `<testcase>` per vector, valid against Jenkins' junit-10 schema.
///
/// Failures carry the field-by-field diff; an inconclusive vector is an `<error type="inconclusive">`, never passed nor
/// skipped, as the exit code counts it; warnings stay visible in `<system-out>`; each vector's level, spec references,
/// tags and file appear once, in its test case's `<system-out>`. Each suite's properties are the suite version, the
/// implementation and its counts of warnings and inconclusive vectors; `properties` adds run-wide ones to every suite
/// (`run.interrupted`, `configuration.unlistedRedirectUris`).
public enum JUnitReport {
  /// The XML for these results.
  public static func render(
    _ results: [VectorResult], implementation: String, timestamp: Date = Date(),
    properties: [(String, String)] = []
  ) -> String {
    String(
      decoding: data(results, implementation: implementation, timestamp: timestamp, properties: properties),
      as: UTF8.self)
  }

  /// The XML for these results as UTF-8 bytes, ready to write (`ReportFile.write`): no string is built on the way.
  ///
  /// Without `wallClock`, the top-level `time` is the sum of the cases' and each suite's the sum of its cases'. With
  /// it (a run whose cases overlap), the top-level `time` is `wallClock` and each suite gets its share of it in
  /// proportion to its cases' sum, so the suites add up to the run's wall-clock time.
  package static func data(
    _ results: [VectorResult], implementation: String, timestamp: Date = Date(),
    properties runProperties: [(String, String)] = [], wallClock: Double? = nil
  ) -> Data {
    // One pass gathers each area's cases, counts and time: under `swift test` (a debug build) every pass over the
    // results copies each one.
    var areas: [(name: String, indices: [Int], summary: RunSummary, duration: Double)] = []
    var position: [String: Int] = [:]
    var all = RunSummary([])
    var summed = 0.0
    for index in results.indices {
      let (area, status, duration) = (results[index].area, results[index].status, results[index].duration)
      let at = position[area] ?? areas.count
      if at == areas.count {
        position[area] = at
        areas.append((area, [], RunSummary([]), 0))
      }
      areas[at].indices.append(index)
      areas[at].summary.count(status)
      areas[at].duration += duration
      all.count(status)
      summed += duration
    }
    let stamp = Timestamp.withoutZone(timestamp)
    let xml = XMLBuffer(capacity: results.count * 600 + 4_096)
    xml.markup("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"")
    xml.attribute(SuiteInfo.name)
    counts(all, into: xml, skipped: false)
    let scale = wallClock.map { summed > 0 ? $0 / summed : 0 } ?? 1
    xml.markup(" time=\"")
    xml.seconds(wallClock ?? summed)
    xml.markup("\">\n")
    for (area, indices, summary, sum) in areas {
      let duration = sum * scale
      xml.markup("  <testsuite name=\"")
      xml.attribute(area)
      counts(summary, into: xml, skipped: true)
      xml.markup(" time=\"")
      xml.seconds(duration)
      xml.raw("\" timestamp=\"\(stamp)\">\n    <properties>\n")
      let properties =
        [
          ("suite.version", SuiteInfo.version), ("suite.commit", SuiteInfo.commit), ("implementation", implementation),
          ("warnings", String(summary.warnings)), ("inconclusive", String(summary.inconclusive)),
        ] + runProperties
      for (name, value) in properties {
        xml.markup("      <property name=\"")
        xml.attribute(Quoted.cut(name, limit: maxMessage))
        xml.markup("\" value=\"")
        xml.attribute(Quoted.cut(value, limit: maxMessage))
        xml.markup("\"/>\n")
      }
      xml.markup("    </properties>\n")
      for index in indices { testcase(results[index], into: xml) }
      xml.markup("  </testsuite>\n")
    }
    xml.markup("</testsuites>\n")
    return xml.data
  }

  /// ` tests="…" failures="…" errors="…"`, and ` skipped="…"` for a suite.
  static func counts(_ summary: RunSummary, into xml: XMLBuffer, skipped: Bool) {
    xml.markup("\" tests=\"")
    xml.raw(String(summary.total))
    xml.markup("\" failures=\"")
    xml.raw(String(summary.failed + summary.stale))
    xml.markup("\" errors=\"")
    xml.raw(String(summary.errors + summary.inconclusive))
    xml.markup("\"")
    if skipped {
      xml.markup(" skipped=\"")
      xml.raw(String(summary.skipped))
      xml.markup("\"")
    }
  }

  /// Writes the report atomically (a temporary file renamed into place), creating the folder if needed.
  public static func write(_ results: [VectorResult], implementation: String, to url: URL) throws {
    try ReportFile.write(data(results, implementation: implementation), to: url.path)
  }

  /// The `<testcase>` element of one result.
  package static func testcase(_ result: VectorResult) -> String {
    let xml = XMLBuffer(capacity: 512)
    testcase(result, into: xml)
    return xml.string
  }

  /// Appends a result's `<testcase` start tag up to its `time` value, which the caller writes: the crash journal's
  /// lines name a case as the final report does.
  static func testcaseStart(_ result: VectorResult, into xml: XMLBuffer) {
    xml.markup("    <testcase classname=\"appflip.")
    xml.attribute(result.area)
    xml.markup("\" name=\"")
    xml.attribute(Quoted.cut(result.id, limit: maxMessage))
    xml.markup("\" time=\"")
  }

  /// Appends the `<testcase>` element of one result.
  static func testcase(_ result: VectorResult, into xml: XMLBuffer) {
    testcaseStart(result, into: xml)
    xml.seconds(result.duration)
    xml.markup("\">\n")
    let summaryMessage =
      result.findings.isEmpty
      ? result.message
      : result.findings.map { "\($0.rule) \($0.field)\($0.partnerRule.map { " (\($0))" } ?? "")" }
        .joined(separator: "; ")
    switch result.status {
    case .failed:
      // The rule that fails the vector: a partner's own when its vector asserts the finding at MUST.
      let first = result.findings.first { $0.level == .must } ?? result.findings.first
      let type = first.map { $0.partnerRule ?? $0.rule } ?? "failure"
      problem("failure", type: type, message: summaryMessage, details: result.details, into: xml)
    case .stale:
      problem("failure", type: "stale-waiver", message: firstLine(result.message), details: result.details, into: xml)
    case .error:
      problem(
        "error", type: errorType(result.origin), message: firstLine(result.message), details: result.details, into: xml
      )
    case .skipped:
      skipped(result.message, into: xml)
    case .inconclusive:
      // Not judged, so never passed: an error of its own type, as the exit code counts it (AF-EP-5).
      problem(
        "error", type: "inconclusive", message: "inconclusive: " + firstLine(result.message), details: result.details,
        into: xml)
    case .passed, .warning:
      break
    }
    // The vector's metadata, once: CI viewers (Jenkins, GitLab) show a test case's output, not suite properties.
    xml.markup("      <system-out>")
    var length = 40 + result.file.utf8.count
    for spec in result.spec { length += spec.utf8.count + 2 }
    for tag in result.tags { length += tag.utf8.count + 2 }
    if result.status != .warning, length <= maxText {
      // Short enough never to be cut: written piece by piece, without building the text first.
      xml.markup("level: ")
      xml.raw(result.level.rawValue)
      xml.markup("\nspec: ")
      for index in result.spec.indices {
        if index > 0 { xml.markup("; ") }
        xml.content(result.spec[index])
      }
      xml.markup("\ntags: ")
      for index in result.tags.indices {
        if index > 0 { xml.markup(", ") }
        xml.content(result.tags[index])
      }
      xml.markup("\nfile: ")
      xml.content(result.file)
    } else {
      var out =
        "level: \(result.level.rawValue)\nspec: \(result.spec.joined(separator: "; "))\ntags: \(result.tags.joined(separator: ", "))\nfile: \(result.file)"
      if result.status == .warning { out += "\nWARNING (SHOULD): \(summaryMessage)\n\(result.details)" }
      xml.content(Quoted.cut(out, limit: maxText))
    }
    xml.markup("</system-out>\n")
    if !result.diagnostics.isEmpty {
      xml.markup("      <system-err>")
      xml.content(Quoted.cut(result.diagnostics, limit: maxText))
      xml.markup("</system-err>\n")
    }
    xml.markup("    </testcase>\n")
  }

  /// `<failure>` or `<error>` with its type, message and details.
  private static func problem(
    _ element: StaticString, type: String, message: String, details: String, into xml: XMLBuffer
  ) {
    xml.markup("      <")
    xml.markup(element)
    xml.markup(" type=\"")
    xml.attribute(type)
    xml.markup("\" message=\"")
    xml.attribute(Quoted.cut(message, limit: maxMessage))
    xml.markup("\">")
    xml.content(Quoted.cut(details, limit: maxText))
    xml.markup("</")
    xml.markup(element)
    xml.markup(">\n")
  }

  /// `<skipped message="…"/>`.
  private static func skipped(_ message: String, into xml: XMLBuffer) {
    xml.markup("      <skipped message=\"")
    xml.attribute(Quoted.cut(message, limit: maxMessage))
    xml.markup("\"/>\n")
  }

  /// The most characters of a message attribute; longer ones show their head and tail and their length.
  static let maxMessage = 1_000
  /// The most characters of a text block (details, output, stderr) in one test case.
  static let maxText = 32_000

  /// Seconds with at most three decimals, as the junit-10 schema's SUREFIRE_TIME allows.
  static func seconds(_ value: Double) -> String {
    let xml = XMLBuffer(capacity: 16)
    xml.seconds(value)
    return xml.string
  }

  /// The `type` of an `<error>`: a bad vector, a bad configuration or waiver file, or the implementation's error.
  static func errorType(_ origin: VectorResult.Origin) -> String {
    switch origin {
    case .vectorFile: "invalid-vector"
    case .configurationFile, .waiverFile: "invalid-file"
    case .vector, .waiver, .configuration, .selection, .harness: "implementation-error"
    }
  }

  private static func firstLine(_ string: String) -> String {
    String(string.prefix { $0 != "\n" })
  }
}
