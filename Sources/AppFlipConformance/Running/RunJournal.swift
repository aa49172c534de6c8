import Foundation

/// Keeps the JUnit report on disk current while a run goes, so a handler that crashes the process (a `fatalError`,
/// a force unwrap: nothing can catch it) leaves a report naming the vector that was running and the rest as not run.
///
/// Each case's `<testcase>` element is rendered once and kept, so a rewrite only joins strings; the report is
/// rewritten when a vector starts (naming it as running) and once more when the last one finishes.
package final class RunJournal: @unchecked Sendable {
  /// Where a case stands.
  private enum State { case planned, running, done }

  /// Above this many cases a command-line run keeps no journal: the report is rewritten as each vector starts, so
  /// its cost grows with the square of the cases (the Swift Testing harness always keeps one).
  package static let maxCases = 1_000

  private let lock = NSLock()
  private let path: String?
  private let implementation: String
  private var results: [VectorResult]
  private var elements: [String]
  private var states: [State]
  private var open: Int
  private var slots: [String: [Int]] = [:]
  private var failure: ReportFile.WriteError?

  /// A journal for these cases, in report order, written to `path` (`nil` keeps none); every case starts as not run.
  package init(planned: [VectorResult], path: String?, implementation: String) {
    self.path = path.flatMap { ReportFile.isReplaceable($0) ? $0 : nil }
    self.implementation = implementation
    results = planned.map {
      var result = $0
      result.status = .skipped
      result.findings = []
      result.message = "not run: the run ended before this vector (the process crashed or was killed)"
      result.isNotRun = true
      return result
    }
    elements = self.path == nil ? [] : results.map(JUnitReport.testcase)
    states = Array(repeating: .planned, count: planned.count)
    open = planned.count
    for (index, result) in planned.enumerated() { slots[result.id, default: []].append(index) }
    lock.withLock { flush() }
  }

  /// A journal for a command-line run: the setup problems and the catalog's problems first, then its vectors.
  package convenience init(_ catalog: VectorCatalog, setup: [VectorResult], path: String?, implementation: String) {
    let vectors = catalog.vectors.map { loaded in
      VectorResult(
        id: loaded.vector.id, area: loaded.area, file: loaded.file, level: loaded.vector.level,
        spec: loaded.vector.spec, tags: loaded.vector.tags, flags: loaded.vector.flags, status: .skipped)
    }
    let planned = setup + Runner.results(for: catalog.problems) + vectors
    self.init(planned: planned, path: planned.count <= Self.maxCases ? path : nil, implementation: implementation)
  }

  /// Marks the case at `index` running (an error, should the process end now) and rewrites the report.
  package func start(_ index: Int) {
    lock.withLock {
      guard states.indices.contains(index), states[index] == .planned else { return }
      states[index] = .running
      guard path != nil else { return }
      results[index].status = .error
      results[index].message =
        "the process ended while this vector ran: the handler crashed (or the run was killed); run it alone to see why"
      elements[index] = JUnitReport.testcase(results[index])
      flush()
    }
  }

  /// Marks the vector with this id running: the first of its slots not yet started.
  package func starting(_ loaded: LoadedVector) {
    let index = lock.withLock { slots[loaded.vector.id]?.first { states[$0] == .planned } }
    if let index { start(index) }
  }

  /// Records the result of the case at `index`; the report is rewritten when every case has finished.
  package func finish(_ index: Int, _ result: VectorResult) {
    lock.withLock {
      guard states.indices.contains(index), states[index] != .done else { return }
      states[index] = .done
      open -= 1
      guard path != nil else { return }
      results[index] = result
      elements[index] = JUnitReport.testcase(result)
      if open == 0 { flush() }
    }
  }

  /// Records a result in the first open slot for its id (one that started, else one not yet run).
  package func finished(_ result: VectorResult) {
    let index = lock.withLock {
      let candidates = slots[result.id] ?? []
      return candidates.first { states[$0] == .running } ?? candidates.first { states[$0] == .planned }
    }
    if let index { finish(index, result) }
  }

  /// The first write that failed, if any.
  package var writeError: ReportFile.WriteError? { lock.withLock { failure } }

  private func flush() {
    guard let path, failure == nil else { return }
    let xml = JUnitReport.render(results, implementation: implementation) { elements[$0] }
    do {
      try ReportFile.write(Data(xml.utf8), to: path)
    } catch {
      failure = error
    }
  }
}
