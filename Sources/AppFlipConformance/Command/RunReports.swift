import Foundation

/// Writes a run's reports the same way for the command line and `ConformanceHarness`: JUnit, Markdown and JSON
/// results as the options ask, each on its own, so one that cannot be written does not stop the others.
package enum RunReports {
  /// Writes the reports `options` ask for, of the run `record` tells (its results in report order, waivers applied);
  /// returns a sentence for each report that could not be written.
  package static func write(_ record: RunRecord, options: ConformanceOptions) -> [CommandError] {
    var failed: [CommandError] = []
    func attempt(_ body: () throws(CommandError) -> Void) {
      do { try body() } catch { failed.append(error) }
    }
    var properties: [(String, String)] = []
    if let stopReason = record.stopReason { properties.append(("run.interrupted", stopReason)) }
    let unlisted = record.configuration.unlistedRedirectURIs
    if !unlisted.isEmpty { properties.append(("configuration.unlistedRedirectUris", unlisted.joined(separator: " "))) }
    properties += record.selection?.properties ?? []
    if let path = options.junit {
      attempt { () throws(CommandError) in
        try write(
          JUnitReport.data(
            record.results, implementation: record.implementation, properties: properties, wallClock: record.duration),
          to: path, what: "the JUnit report")
      }
    }
    if let path = options.markdown {
      let markdown = MarkdownReport.render(
        record.results, implementation: record.implementation, configuration: record.configuration,
        strict: options.strict, registry: record.registry, stopReason: record.stopReason, selection: record.selection)
      attempt { () throws(CommandError) in
        try write(
          Data(markdown.utf8), to: path, what: "the Markdown summary",
          mode: MarkdownReport.appends(to: path) ? .append : .replace)
      }
    }
    if let path = options.json {
      let document = JSONResultsReport.Document(
        results: record.results, implementation: .init(name: record.implementation),
        configuration: record.configuration, startedAt: record.startedAt,
        duration: record.duration ?? Date().timeIntervalSince(record.startedAt), stopReason: record.stopReason,
        selection: record.selection, strict: options.strict, flags: record.registry.partnerFlags)
      attempt { () throws(CommandError) in try write(json: document, to: path, what: "the JSON results") }
    }
    return failed
  }

  /// Writes the waivers a run needs: with `updating`, that file updated (`WaiverFile.updated(with:date:)`), else a
  /// new file adopting every failure; `results` are the run's, before waivers were applied. Returns the lines to
  /// print: what was written, and a note when errors got no waiver.
  package static func writeWaivers(
    _ results: [VectorResult], updating waivers: WaiverFile?, to path: String, date: Date
  ) throws(CommandError) -> (written: String, note: String?) {
    let day = Timestamp.day(date)
    let errors = results.filter { $0.status == .error }.count
    var notes: [String] = []
    if errors > 0 {
      notes.append("note: \(errors) errors got no waiver: a waiver never hides an error; fix them first.")
    }
    let file: WaiverFile
    let written: String
    let added: [Waiver]
    if let waivers {
      let update = waivers.updated(with: results, date: day)
      file = update.file
      added = update.added
      written = "Waivers updated (\(update.summary)): \(path)"
    } else {
      file = WaiverFile.adopting(results, date: day)
      added = file.waivers
      written = "Waivers for \(Count.of(file.waivers.count, "vector")): \(path)"
    }
    // A failure is a MUST finding (or a SHOULD one under --strict): adopting it accepts a known non-conformance.
    let failures = results.filter { result in
      result.status == .failed && added.contains { $0.id == VectorFilter.escaped(result.id) }
    }
    if !failures.isEmpty {
      let ids = failures.prefix(5).map { Quoted.string($0.id) }.joined(separator: ", ")
      notes.append(
        "warning: \(failures.count) of the new waivers accept failures, not warnings (\(ids)"
          + (failures.count > 5 ? ", …" : "") + "): each reason names the rule it broke; review them before you"
          + " commit the file, since a waived MUST finding is a known non-conformance, not a pass.")
    }
    try write(json: file, to: path, what: "the waiver file")
    return (written, notes.isEmpty ? nil : notes.joined(separator: "\n"))
  }

  /// Writes `value` as the suite's JSON files are written (`ReportFile.json`), with an error that names the path.
  package static func write(json value: some Encodable, to path: String, what: String) throws(CommandError) {
    guard let data = try? ReportFile.json(value) else {
      throw .cannotWrite(what: what, path: path, reason: "it cannot be encoded as JSON")
    }
    try write(data, to: path, what: what)
  }

  /// Writes a file through the library's one writer (atomic for a regular file, written through for a FIFO or
  /// device), with an error that names the path.
  package static func write(
    _ data: Data, to path: String, what: String, mode: ReportFile.Mode = .replace
  ) throws(CommandError) {
    do {
      try ReportFile.write(data, to: path, mode: mode)
    } catch {
      throw .cannotWrite(what: what, path: path, reason: error.reason)
    }
  }
}
