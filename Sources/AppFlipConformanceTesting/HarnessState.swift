import AppFlipConformance
import Foundation

/// What a harness's run has gathered so far: each case's result, in case order, until the last one finishes; then the
/// reports are written once, the same way the command line writes them, and the summary is made.
final class HarnessState: @unchecked Sendable {
  /// What the last case to finish reports: the summary to print and the problems to record as issues.
  struct Ending: Sendable {
    /// The closing summary: counts by status and the failing rules.
    var summary: String
    /// Reports that could not be written, each a sentence.
    var problems: [String]
  }

  /// Stops the run after `--max-failures`.
  let control: RunControl
  /// Limits how many cases run at once (`jobs`); `nil` lets Swift Testing decide.
  let gate: CaseGate?
  /// The waiver file's path, as shown in messages.
  let waiversPath: String

  private let lock = NSLock()
  private let name: String
  private let cases: [ConformanceCase]
  private let options: ConformanceOptions
  private let implementation: String
  private let loadedIDs: [String]
  private let configuration: PartnerConfiguration
  private let waivers: WaiverFile?
  private let positions: [Int: Int]
  private let registry: FlagRegistry
  private let selection: RunSelection
  private let journal: HarnessJournal
  private var results: [VectorResult?]
  private var open: Int
  private var started: (date: Date, uptime: UInt64)?
  private var finalJUnit: UInt64 = 0

  /// The seconds spent on the JUnit report so far: the journal's writes, and the final report once written.
  var junitSeconds: Double { journal.seconds + lock.withLock { Double(finalJUnit) / 1e9 } }

  init(
    name: String, cases: [ConformanceCase], options: ConformanceOptions, implementation: String,
    configuration: PartnerConfiguration, waivers: WaiverFile?, waiversPath: String, loadedIDs: [String],
    definitions: VectorDefinitions, selection: RunSelection
  ) {
    registry = definitions.registry
    self.selection = selection
    self.name = name
    self.configuration = configuration
    self.waivers = waivers
    self.cases = cases
    self.options = options
    self.implementation = implementation
    self.waiversPath = waiversPath
    self.loadedIDs = loadedIDs
    control = RunControl(maxFailures: options.maxFailures)
    gate = options.jobs.map(CaseGate.init(limit:))
    results = Array(repeating: nil, count: cases.count)
    open = cases.count
    let order = Self.reportOrder(cases)
    journal = HarnessJournal(
      planned: order.map { Self.planned(cases[$0]) }, path: options.junit, implementation: implementation)
    positions = Dictionary(uniqueKeysWithValues: order.enumerated().map { ($1, $0) })
  }

  /// Notes that the case at `index` starts.
  func start(_ index: Int) {
    lock.withLock {
      if started == nil { started = (Date(), DispatchTime.now().uptimeNanoseconds) }
    }
    if let position = positions[index] { journal.start(position) }
  }

  /// Records the raw result (before waivers) of the case at `index`; when it is the last, writes the reports and
  /// returns the ending.
  func finish(_ index: Int, raw: VectorResult) -> Ending? {
    if let position = positions[index] { journal.finish(position) }
    let all: [VectorResult]? = lock.withLock {
      guard results.indices.contains(index), results[index] == nil else { return nil }
      results[index] = raw
      open -= 1
      return open == 0 ? results.compactMap { $0 } : nil
    }
    guard let all else { return nil }
    return end(all)
  }

  private func end(_ raw: [VectorResult]) -> Ending {
    let (startedAt, uptime) = lock.withLock { started ?? (Date(), DispatchTime.now().uptimeNanoseconds) }
    let seconds = Double(DispatchTime.now().uptimeNanoseconds - uptime) / 1e9
    let order = Self.reportOrder(cases)
    let ordered = order.map { raw[$0] }
    let kept = order.filter { cases[$0].kind != .unmatchedWaiver }.map { raw[$0] }
    let results = waivers?.apply(to: kept, loadedIDs: loadedIDs, file: waiversPath) ?? ordered
    journal.close()
    // The JUnit report first and on its own, timed; then the others.
    var junitOnly = options
    (junitOnly.markdown, junitOnly.json) = (nil, nil)
    var others = options
    others.junit = nil
    let write = { (options: ConformanceOptions) in
      RunReports.write(
        results, options: options, implementation: self.implementation, configuration: self.configuration,
        startedAt: startedAt, duration: seconds, stopReason: self.control.stopReason?.description,
        registry: self.registry, selection: self.selection
      ).map(\.description)
    }
    let junitStart = DispatchTime.now().uptimeNanoseconds
    var problems = write(junitOnly)
    let junitSpent = DispatchTime.now().uptimeNanoseconds - junitStart
    lock.withLock { finalJUnit = junitSpent }
    problems += write(others)
    if let path = options.writeWaivers {
      do {
        let (written, note) = try RunReports.writeWaivers(kept, updating: waivers, to: path, date: startedAt)
        print(written)
        if let note { print(note) }
      } catch {
        problems.append(error.description)
      }
    }
    return Ending(
      summary: HarnessSummary.render(
        results, seconds: seconds, options: options, name: name, junitSeconds: options.junit.map { _ in junitSeconds }),
      problems: problems)
  }

  /// Case positions in the order the command line reports them: setup problems, vector-file problems, vectors.
  static func reportOrder(_ cases: [ConformanceCase]) -> [Int] {
    func rank(_ kind: ConformanceCase.Kind) -> Int {
      switch kind {
      case .reportClash, .configuration, .waiverFile, .selection: 0
      case .vectorFile: 1
      case .vector: 2
      case .unmatchedWaiver: 3
      }
    }
    return cases.indices.sorted { (rank(cases[$0].kind), $0) < (rank(cases[$1].kind), $1) }
  }

  /// A case as planned: not run yet.
  static func planned(_ testCase: ConformanceCase) -> VectorResult {
    let loaded = testCase.loaded
    return VectorResult(
      id: testCase.id, area: loaded?.area ?? testCase.problemOrigin.reportArea ?? "",
      file: loaded?.file ?? testCase.problems.first?.file ?? "", level: loaded?.vector.level ?? .must,
      spec: loaded?.vector.spec ?? [], tags: loaded?.vector.tags ?? [], flags: loaded?.vector.flags ?? [],
      status: .skipped)
  }
}
