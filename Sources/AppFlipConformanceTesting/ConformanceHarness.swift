import AppFlipConformance
import Foundation
import Testing

/// Runs App Flip vectors against an implementation from a Swift Testing target, one test case per vector, and writes
/// the same reports as the command line (JUnit, Markdown, JSON results, waivers) once its last case has run.
///
/// ```swift
/// let appFlip = ConformanceHarness(handler: MyAppFlipHandler())
///
/// @Test("App Flip conformance", arguments: appFlip.cases)
/// func appFlipConformance(_ vector: ConformanceCase) async { await appFlip.check(vector) }
/// ```
public final class ConformanceHarness: Sendable {
  /// The harness's name: its reports are named after it (`{name}` in a report path), and its summary shows it.
  public let name: String
  /// The cases to pass as `arguments:`: every selected vector, then every unusable vector file and setup problem.
  public let cases: [ConformanceCase]
  /// The runner that judges each vector.
  package let runner: Runner
  /// What the run does and which reports it writes: the command line's options, shared.
  public let options: ConformanceOptions
  /// The expected failures: waived ones pass as skipped, a waiver whose vector passes fails (stale).
  package let waivers: WaiverFile?
  /// What each failing result's evidence gets once it has run: the partner's rules and the command that reruns it.
  let evidence: EvidenceContext
  /// Stops the run after `--max-failures`.
  let control: RunControl
  /// Limits how many cases run at once (`jobs`); `nil` lets Swift Testing decide.
  let gate: CaseGate?
  /// The waiver file's path, as shown in messages.
  let waiversPath: String
  /// Each case's position in report order (`reportOrder`).
  let positions: [Int]
  /// How many cases are waivers that match no loaded vector: the last ones in report order.
  let unmatched: Int
  /// Keeps each case's result, in report order, until the last one finishes; the reports are then written once from
  /// its record, the same way the command line writes them.
  let journal: RunJournal
  /// When the first case started (wall clock and uptime).
  let started = Locked<(date: Date, uptime: UInt64)?>(nil)
  /// The nanoseconds the final JUnit report took.
  let finalJUnit = Locked<UInt64>(0)

  /// The seconds spent on the JUnit report so far: the crash journal's writes, and the final report once the last case
  /// has run (the benchmark's "harness JUnit share").
  package var junitSeconds: Double { journal.seconds + Double(finalJUnit.withLock { $0 }) / 1e9 }

  /// Creates a harness for any adapter (in-process, subprocess, HTTP), doing what `options` say.
  ///
  /// - Parameters:
  ///   - name: names the harness in its summary, and its reports where a path holds `{name}`; two harnesses that
  ///     would write the same report are refused (the second gets a failing case and writes nothing).
  ///   - adapter: the implementation under test.
  ///   - configuration: the partner's client id, universal link and allow-list.
  ///   - options: vectors, selection, gating and reports, as on the command line; paths are relative to the working
  ///     directory (the package root under `swift test`). `APPFLIP_FILTER` in the environment adds id globs
  ///     (comma-separated), as `--filter` does, to run one vector again.
  ///
  /// The configuration is checked first (`PartnerConfiguration.problems`): each of its problems is a failing case, so a
  /// bad configuration is never blamed on the handler; a selection that selects no vector is a failing case too.
  public init(
    name: String = "appflip-conformance", adapter: any ConformanceAdapter,
    configuration: PartnerConfiguration = .default, options: ConformanceOptions
  ) {
    var options = options.named(name)
    options.filter.idPatterns += Self.filterGlobs(ProcessInfo.processInfo.environment)
    var setup: [ConformanceCase] = []
    if let clash = ReportClaims.claim(options.reportPaths, for: name) {
      setup.append(ConformanceCase(.harness, id: "reports of \(name)", problem: clash))
      options.junit = nil
      options.markdown = nil
      options.json = nil
      options.writeWaivers = nil
    }
    // Loaded as the command line loads them: the bundled vectors and the partner's in one catalog, whose partner
    // definitions apply to every file.
    let urls = options.vectors.map(URL.init(fileURLWithPath:))
    let roots = urls.map { (shown: VectorSource.relative($0.path), absolute: $0.standardizedFileURL.path) }
    let (bundled, bundledShown) = options.bundled ? VectorLoader.bundled(adapter.profile) : ([], [])
    let loaded = VectorLoader.load(bundled + urls, displayPaths: bundledShown + roots.map(\.shown))
    let catalog = options.select(loaded)
    // The reports name the vectors run: a shard's, since the harness's JSON results are not merged as shards.
    let selection = RunSelection(catalog.vectors)
    let waiversPath = options.waivers.map(VectorSource.relative) ?? ""
    var waiverFile: WaiverFile?
    if let path = options.waivers {
      do {
        let file = try WaiverFile.load(URL(fileURLWithPath: path))
        waiverFile = file
        // The results applying the waivers to no result gives: one error for each waiver that matches no vector.
        for unmatched in file.apply(to: [], loadedIDs: loaded.vectors.map(\.vector.id), file: waiversPath) {
          setup.append(ConformanceCase(.waiver, id: unmatched.id, file: waiversPath, problem: unmatched.message))
        }
      } catch {
        setup.append(ConformanceCase(.waiverFile, id: waiversPath, file: waiversPath, problem: error.description))
      }
    }
    setup += configuration.problems.map {
      ConformanceCase(.configuration, id: "configuration \($0.field)", problem: "configuration: \($0)")
    }
    if let problem = options.selectionProblem(loaded: loaded, selected: catalog) {
      setup.append(ConformanceCase(.selection, id: "selection", problem: problem))
    }
    let sources = VectorSource.sources(of: catalog.vectors, roots: roots)
    var cases =
      zip(catalog.vectors, sources).map(ConformanceCase.init(loaded:source:))
      + Runner.results(for: catalog.problems).map(ConformanceCase.init(vectorFile:)) + setup
    for index in cases.indices { cases[index].index = index }
    self.cases = cases
    self.name = name
    self.options = options
    self.waivers = waiverFile
    evidence = EvidenceContext(rules: loaded.definitions.rules, reproduce: Self.reproduce)
    runner = Runner(
      adapter: adapter, configuration: configuration, timeout: options.timeout, strict: options.strict,
      platform: options.platform)
    self.waiversPath = waiversPath
    control = RunControl(maxFailures: options.maxFailures)
    gate = options.jobs.map(CaseGate.init(limit:))
    let order = Self.reportOrder(cases)
    var positions = Array(repeating: 0, count: cases.count)
    for (position, index) in order.enumerated() { positions[index] = position }
    self.positions = positions
    unmatched = cases.count { $0.kind == .waiver }
    journal = RunJournal(
      RunRecord(
        results: order.map { cases[$0].result }, implementation: adapter.name, configuration: configuration,
        registry: loaded.definitions.registry, selection: selection),
      path: options.junit)
  }

  /// The id globs of `APPFLIP_FILTER` (comma-separated, as `--filter` takes them), to run one vector again.
  static func filterGlobs(_ environment: [String: String]) -> [String] {
    (environment["APPFLIP_FILTER"] ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
      .filter { !$0.isEmpty }
  }

  /// The command that runs the vector with this id again: `APPFLIP_FILTER` with the id, and `swift test` filtered to
  /// the test that runs the harness's cases.
  @Sendable static func reproduce(_ id: String) -> String {
    let test = Test.current.map { " --filter " + ShellWord.word(String($0.name.prefix { $0 != "(" })) } ?? ""
    return "APPFLIP_FILTER=\(ShellWord.quoted(VectorFilter.escaped(id))) swift test" + test
  }

  /// Runs one case and records an issue when it fails or errors, at the vector's own line when it is the partner's;
  /// warnings are printed, not failed, unless `strict`. The last case to finish writes the reports and prints the
  /// summary.
  public func check(_ testCase: ConformanceCase, sourceLocation: SourceLocation = #_sourceLocation) async {
    let result = await run(testCase)
    switch result.status {
    case .passed, .skipped:
      break
    case .warning:
      print("warning: \(result.id): \(result.details)")
    case .failed, .error, .stale, .inconclusive:
      Issue.record(
        Comment(rawValue: "\(result.id) \(result.status.rawValue) [\(result.file)]\n\(result.details)"),
        sourceLocation: testCase.source?.sourceLocation ?? sourceLocation)
    }
  }

  /// Runs one case and returns its result (waivers applied); the last case to finish writes the reports.
  public func run(_ testCase: ConformanceCase) async -> VectorResult {
    await gate?.enter()
    started.withLock { started in
      if started == nil { started = (Date(), DispatchTime.now().uptimeNanoseconds) }
    }
    journal.start(positions[testCase.index])
    var raw = testCase.result
    if let loaded = testCase.loaded { raw = evidence.complete(await runner.run(loaded, control: control)) }
    await gate?.leave()
    let result = waivers.map { $0.apply(to: raw, file: waiversPath) } ?? raw
    if journal.finish(positions[testCase.index], raw) { end() }
    return testCase.kind == .waiver ? raw : result
  }
}

/// The report files the harnesses of this process write, so two harnesses never overwrite each other's reports.
enum ReportClaims {
  private static let claims = Locked<[String: String]>([:])

  /// Claims `paths` for the harness `name`; returns why not, in one sentence, when another harness writes one of them
  /// (a Markdown summary that is appended to, such as `$GITHUB_STEP_SUMMARY`, is shared).
  static func claim(_ paths: [String], for name: String) -> String? {
    let owned = paths.filter { !MarkdownReport.appends(to: $0) }
    let keys = owned.map { URL(fileURLWithPath: $0).standardizedFileURL.path }
    return claims.withLock { claimed in
      for (path, key) in zip(owned, keys) {
        if let owner = claimed[key] {
          return "ConformanceHarness \"\(name)\" would overwrite \"\(path)\", which ConformanceHarness \"\(owner)\" "
            + "writes; give each harness its own name: (its reports are named after it) or its own report paths."
        }
      }
      for key in keys { claimed[key] = name }
      return nil
    }
  }
}
