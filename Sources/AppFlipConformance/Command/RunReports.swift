import Foundation

/// Writes a run's reports the same way for the command line and `ConformanceHarness`: JUnit, Markdown and JSON
/// results as the options ask, each on its own, so one that cannot be written does not stop the others.
package enum RunReports {
  /// Writes the reports `options` ask for; returns a sentence for each report that could not be written.
  ///
  /// - Parameters:
  ///   - results: every result, in report order, waivers applied.
  ///   - options: which reports go where, and whether the run was strict.
  ///   - implementation: the implementation's name, as the reports show it.
  ///   - configuration: the partner configuration the vectors ran under.
  ///   - startedAt: when the run started.
  ///   - duration: the run's wall-clock seconds, which the JUnit report's times then add up to; `nil` for the time
  ///     since `startedAt` in the JSON results, and JUnit times summed over the cases.
  ///   - stopReason: why the run stopped early, if it did.
  ///   - registry: the flags the Markdown summary describes: the bundled ones and those of the partner's
  ///     `flags.json` loaded with the vectors (`VectorDefinitions.registry`); the JSON results keep the partner's.
  ///   - selection: the vectors selected (count and digest) and the shard run, which every report names.
  package static func write(
    _ results: [VectorResult], options: ConformanceOptions, implementation: String,
    configuration: PartnerConfiguration, startedAt: Date, duration: Double? = nil, stopReason: String? = nil,
    registry: FlagRegistry = .bundled, selection: RunSelection? = nil
  ) -> [CommandError] {
    var failed: [CommandError] = []
    func attempt(_ body: () throws(CommandError) -> Void) {
      do { try body() } catch { failed.append(error) }
    }
    var properties: [(String, String)] = []
    if let stopReason { properties.append(("run.interrupted", stopReason)) }
    let unlisted = configuration.unlistedRedirectURIs
    if !unlisted.isEmpty { properties.append(("configuration.unlistedRedirectUris", unlisted.joined(separator: " "))) }
    properties += selection?.properties ?? []
    if let path = options.junit {
      attempt { () throws(CommandError) in
        try write(
          JUnitReport.data(results, implementation: implementation, properties: properties, wallClock: duration),
          to: path, what: "the JUnit report")
      }
    }
    if let path = options.markdown {
      let markdown = MarkdownReport.render(
        results, implementation: implementation, configuration: configuration, strict: options.strict,
        registry: registry, stopReason: stopReason, selection: selection)
      attempt { () throws(CommandError) in
        try write(
          Data(markdown.utf8), to: path, what: "the Markdown summary",
          mode: MarkdownReport.appends(to: path) ? .append : .replace)
      }
    }
    if let path = options.json {
      let document = JSONResultsReport.Document(
        results: results, implementation: .init(name: implementation), configuration: configuration,
        startedAt: startedAt, duration: duration ?? Date().timeIntervalSince(startedAt), stopReason: stopReason,
        selection: selection, strict: options.strict, flags: registry.partnerFlags)
      attempt { () throws(CommandError) in
        guard let data = try? JSONResultsReport.encode(document) else {
          throw .cannotWrite(what: "the JSON results", path: path, reason: "they cannot be encoded")
        }
        try write(data, to: path, what: "the JSON results")
      }
    }
    return failed
  }

  /// Writes the waivers a run needs: with `updating`, that file updated (`WaiverFile.updated(with:date:)`), else a
  /// new file adopting every failure; `results` are the run's, before waivers were applied. Returns the lines to
  /// print: what was written, and a note when errors got no waiver.
  package static func writeWaivers(
    _ results: [VectorResult], updating waivers: WaiverFile?, to path: String, date: Date
  ) throws(CommandError) -> (written: String, note: String?) {
    let day = String(ISO8601DateFormatter().string(from: date).prefix(10))
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
    let note = notes.isEmpty ? nil : notes.joined(separator: "\n")
    guard let encoded = try? file.encoded() else {
      throw .cannotWrite(what: "the waiver file", path: path, reason: "it cannot be encoded")
    }
    try write(encoded, to: path, what: "the waiver file")
    return (written, note)
  }

  /// Whether a report path is shared with other writers and appended to (`$GITHUB_STEP_SUMMARY`), not replaced.
  package static func isShared(_ path: String) -> Bool { MarkdownReport.appends(to: path) }

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
