import AppFlipConformance
import Foundation

/// The end of a harness's run: its crash journal keeps each case's result, in report order, until the last one
/// finishes; then the reports are written once from the journal's record, the same way the command line writes them,
/// and the summary is made.
extension ConformanceHarness {
  /// Notes that the case at `index` starts.
  func start(_ index: Int) {
    started.withLock { started in
      if started == nil { started = (Date(), DispatchTime.now().uptimeNanoseconds) }
    }
    journal.start(positions[index])
  }

  /// Records the raw result (before waivers) of the case at `index`; when it is the last, writes the reports and
  /// returns what to show: the closing summary (counts by status, the failing rules) and a sentence for each report
  /// that could not be written, to record as an issue.
  func finish(_ index: Int, raw: VectorResult) -> (summary: String, problems: [String])? {
    journal.finish(positions[index], raw) ? end() : nil
  }

  private func end() -> (summary: String, problems: [String]) {
    let (startedAt, uptime) = started.withLock { $0 ?? (Date(), DispatchTime.now().uptimeNanoseconds) }
    var record = journal.record
    journal.end()
    record.startedAt = startedAt
    record.duration = Double(DispatchTime.now().uptimeNanoseconds - uptime) / 1e9
    record.stopReason = control.stopReason?.description
    // The unmatched waivers' cases are the errors applying the waivers reports; the others get their waivers.
    let kept = Array(record.results.dropLast(unmatched))
    if let waivers {
      record.results = kept.map { waivers.apply(to: $0, file: waiversPath) } + record.results.suffix(unmatched)
    }
    // The JUnit report first and on its own, timed; then the others.
    var junitOnly = options
    (junitOnly.markdown, junitOnly.json) = (nil, nil)
    var others = options
    others.junit = nil
    let junitStart = DispatchTime.now().uptimeNanoseconds
    var problems = RunReports.write(record, options: junitOnly).map(\.description)
    let junitSpent = DispatchTime.now().uptimeNanoseconds - junitStart
    finalJUnit.withLock { $0 = junitSpent }
    problems += RunReports.write(record, options: others).map(\.description)
    if let path = options.writeWaivers {
      do {
        let (written, note) = try RunReports.writeWaivers(kept, updating: waivers, to: path, date: startedAt)
        print(written)
        if let note { print(note) }
      } catch {
        problems.append(error.description)
      }
    }
    return (
      summary: HarnessSummary.render(
        record.results, seconds: record.duration ?? 0, options: options, name: name,
        junitSeconds: options.junit.map { _ in junitSeconds }),
      problems: problems
    )
  }

  /// Case positions in the order the command line reports them: setup problems, vector-file problems, vectors.
  static func reportOrder(_ cases: [ConformanceCase]) -> [Int] {
    func rank(_ kind: VectorResult.Origin) -> Int {
      switch kind {
      case .harness, .configuration, .configurationFile, .waiverFile, .selection: 0
      case .vectorFile: 1
      case .vector: 2
      case .waiver: 3
      }
    }
    return cases.indices.sorted { (rank(cases[$0].kind), $0) < (rank(cases[$1].kind), $1) }
  }
}
