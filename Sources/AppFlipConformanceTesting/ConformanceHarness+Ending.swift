import AppFlipConformance
import Foundation
import Testing

/// The end of a harness's run: its crash journal keeps each case's result, in report order, until the last one
/// finishes; then the reports are written once from the journal's record, the same way the command line writes them,
/// and the summary is made.
extension ConformanceHarness {
  /// Once the last case has finished: writes the reports, records an issue for each that could not be written, and
  /// prints the closing summary (counts by status, the failing rules).
  func end() {
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
    for problem in problems { Issue.record(Comment(rawValue: problem)) }
    print(
      HarnessSummary.render(
        record.results, seconds: record.duration ?? 0, options: options, name: name,
        junitSeconds: options.junit.map { _ in junitSeconds }))
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
