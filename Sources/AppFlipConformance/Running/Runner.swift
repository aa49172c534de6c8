import AppFlip
import Foundation

/// Runs vectors through adapters and judges each, on one worker per adapter: each vector runs whole on one worker, the
/// results come back in catalog order, and a vector that throws or hangs is an error, never a crash of the run.
public struct Runner: Sendable {
  /// One adapter per worker, each with an implementation of its own (`--jobs`; Docs/PROTOCOL.md, "Parallel runs").
  package var adapters: [any ConformanceAdapter]
  /// The partner configuration vectors are rendered with.
  package var configuration: PartnerConfiguration
  /// Seconds one step may take before it counts as an error.
  package var timeout: Double
  /// Whether SHOULD findings fail a vector instead of warning.
  package var strict: Bool
  /// The platform the app targets: vectors whose links it cannot deliver are skipped; `nil` runs every vector.
  package var platform: DeliveryPlatform?
  /// What each result's evidence gets as its vector ends, on the thread that reports it (the rules' sentences, the
  /// command that runs it again), not in a pass over every result once the run is over; `nil` leaves the evidence as
  /// the run made it (the Swift Testing harness completes it in the test's own task, whose name its command carries).
  package var evidence: EvidenceContext?

  /// The implementation under test: the first worker's adapter.
  package var adapter: any ConformanceAdapter { adapters[0] }

  /// Creates a runner with one worker.
  public init(
    adapter: any ConformanceAdapter, configuration: PartnerConfiguration = .default, timeout: Double = 10,
    strict: Bool = false, platform: DeliveryPlatform? = nil
  ) {
    self.init(adapters: [adapter], configuration: configuration, timeout: timeout, strict: strict, platform: platform)
  }

  /// Creates a runner with a worker per adapter; it needs at least one.
  package init(
    adapters: [any ConformanceAdapter], configuration: PartnerConfiguration = .default, timeout: Double = 10,
    strict: Bool = false, platform: DeliveryPlatform? = nil
  ) {
    precondition(!adapters.isEmpty, "a runner needs at least one adapter")
    self.adapters = adapters
    self.configuration = configuration
    self.timeout = timeout
    self.strict = strict
    self.platform = platform
  }

  /// Runs every vector of a catalog, reporting its problems as errors first; `onResult` sees each result as it comes
  /// (a vector that a late fault then makes an error is returned as one).
  ///
  /// When `control` asks to stop (an interruption, or too many failures), the vectors left are reported as skipped,
  /// "not run", so the report still lists every vector.
  ///
  /// `onStart` sees each vector before it runs (the journal that keeps the report current uses it). When the task is
  /// cancelled (SIGINT, SIGTERM), the steps in flight are abandoned at once and their vectors reported as not run.
  public func run(
    _ catalog: VectorCatalog, control: RunControl = RunControl(),
    onStart: @escaping @Sendable (LoadedVector) -> Void = { _ in },
    onResult: @escaping @Sendable (VectorResult) -> Void = { _ in }
  ) async -> [VectorResult] {
    let problems = Runner.results(for: catalog.problems)
    problems.forEach(onResult)
    let vectors = catalog.vectors
    let results = await run(
      VectorFeed(vectors), control: control, onStart: { onStart(vectors[$0]) }, onResult: { onResult($1) })
    // Returned as they are when nothing comes first: `problems + results` copies (retains) every result.
    return problems.isEmpty ? results : problems + results
  }

  /// Runs the vectors of `feed` under `control` as they are added; the results in their order, once it ended.
  /// `onStart` and `onResult` see each vector by its index as it starts and ends, and `onAmend` its result again when a
  /// late fault makes it an error.
  package func run(
    _ feed: VectorFeed, control: RunControl, onStart: @escaping @Sendable (Int) -> Void = { _ in },
    onResult: @escaping @Sendable (Int, VectorResult) -> Void = { _, _ in },
    onAmend: @escaping @Sendable (Int, VectorResult) -> Void = { _, _ in }
  ) async -> [VectorResult] {
    await CatalogRun(
      runner: self, feed: feed, control: control, settle: CatalogRun.settleGrace, onStart: onStart,
      onResult: onResult, onAmend: onAmend
    ).run()
  }

  /// Runs and judges one vector.
  public func run(_ loaded: LoadedVector) async -> VectorResult {
    await run(loaded, control: RunControl())
  }

  /// Runs one vector under `control`: not run once it asks to stop, and reported as not run when the task is
  /// cancelled while the vector runs; the result is counted for `--max-failures`.
  package func run(_ loaded: LoadedVector, control: RunControl) async -> VectorResult {
    // No wait for a late second answer: the next vector on the adapter shows it.
    await CatalogRun(runner: self, feed: VectorFeed([loaded]), control: control, settle: 0).run()[0]
  }

  /// Plans one vector for `adapter` (or skips it with the reason), sends its steps under `watch`, and hands what the
  /// implementation did to the judge.
  func judge(_ loaded: LoadedVector, on adapter: any ConformanceAdapter, watch: CatalogRun.Watch) async -> VectorResult
  {
    let start = DispatchTime.now()
    let plan: VectorPlan
    switch VectorPlan.make(loaded, configuration: configuration, adapter: adapter, platform: platform) {
    case .failure(let skip):
      return VectorResult(loaded, status: .skipped, message: skip.reason)
    case .success(let planned):
      plan = planned
    }
    watch.note(plan: plan)
    let run = RunNumbers.next()
    let observations =
      plan.vector.interleaved
      ? await sendInterleaved(plan.requests(run: run), to: adapter, watch: watch)
      : await sendInOrder(plan, run: run, to: adapter, watch: watch)
    // The result is built once every step answered, so the steps run with a small frame and none copies it.
    var findings: [Finding] = []
    var diagnostics = ""
    var inconclusive: String?
    for index in observations.indices {
      let observation: Observation
      switch observations[index] {
      case .success(let answered):
        observation = answered
      case .failure(let declined) where declined is ImplementationSkipped || declined is ImplementationInconclusive:
        // The implementation declined the vector, or what it saw proves nothing: its reason is the message.
        var result = VectorResult(
          loaded, status: declined is ImplementationSkipped ? .skipped : .inconclusive,
          message: String(describing: declined))
        result.duration = Runner.seconds(since: start)
        return result.withEvidence(plan, observations)
      case .failure(let error):
        return Runner.failed(loaded, step: index, error: error, prior: observations[..<index], since: start)
          .withEvidence(plan, observations)
      }
      if !observation.diagnostics.isEmpty {
        if !diagnostics.isEmpty { diagnostics += "\n" }
        diagnostics += observation.diagnostics
      }
      if inconclusive == nil { inconclusive = observation.inconclusive }
      findings += Judge.findings(observation, step: index, of: plan)
    }
    var result = VectorResult(loaded, status: Runner.status(for: findings, strict: strict))
    result.findings = findings
    if result.status != .failed, let inconclusive {
      result.status = .inconclusive
      result.message = inconclusive
    }
    result.diagnostics = diagnostics
    result.duration = Runner.seconds(since: start)
    return result.withEvidence(plan, observations)
  }

  /// Sends a plan's steps one after another, numbered `run`, stopping at the first that fails to answer; each request
  /// is made as its step is sent.
  func sendInOrder(_ plan: VectorPlan, run: Int, to adapter: any ConformanceAdapter, watch: CatalogRun.Watch) async
    -> [Result<Observation, any Error>]
  {
    var results: [Result<Observation, any Error>] = []
    results.reserveCapacity(plan.steps.count)
    for index in plan.steps.indices {
      // The worker's slot starts at step 0 with nothing before it.
      if index > 0 { watch.note(step: index, prior: results) }
      var request = plan.request(index, run: run)
      request.watch = watch
      let result = await Self.send(request, to: adapter, within: timeout)
      results.append(result)
      if case .failure = result { break }
    }
    return results
  }

  /// Sends every step at once, for interleaved vectors; results come back in step order.
  ///
  /// The steps start together, so they share one deadline: the watch names the step that decides the result if it
  /// passes, the first step in order that did not answer or that failed (see `CatalogRun.note`).
  func sendInterleaved(_ requests: [HandlerRequest], to adapter: any ConformanceAdapter, watch: CatalogRun.Watch) async
    -> [Result<Observation, any Error>]
  {
    let timeout = self.timeout
    return await withTaskGroup(of: (Int, Result<Observation, any Error>).self) { group in
      for (index, request) in requests.enumerated() {
        var request = request
        request.watch = watch
        group.addTask { (index, await Self.send(request, to: adapter, within: timeout)) }
      }
      var results = [Result<Observation, any Error>?](repeating: nil, count: requests.count)
      for await (index, result) in group {
        results[index] = result
        // The first step that did not answer, or failed, decides the result if the deadline passes.
        guard let deciding = results.firstIndex(where: { if case .success = $0 { false } else { true } }) else {
          continue
        }
        let failure: (any Error)? = if case .failure(let error)? = results[deciding] { error } else { nil }
        watch.note(step: deciding, prior: results[..<deciding].compactMap { $0 }, failure: failure)
      }
      return results.compactMap { $0 }
    }
  }

  /// Sends one step through the adapter; what it answered or threw. (A task group's child that returned its tuple
  /// from inside a do/catch came back with a garbage index under -O, Swift 6.3.)
  static func send(_ request: HandlerRequest, to adapter: any ConformanceAdapter, within seconds: Double) async
    -> Result<Observation, any Error>
  {
    do {
      return .success(try await adapter.send(request, within: seconds))
    } catch {
      return .failure(error)
    }
  }

  /// The status findings add up to: any MUST fails; SHOULD warns, or fails when strict; MAY is noted only.
  package static func status(for findings: [Finding], strict: Bool) -> Status {
    if findings.contains(where: { $0.level == .must }) { return .failed }
    if findings.contains(where: { $0.level == .should }) { return strict ? .failed : .warning }
    return .passed
  }

  /// One error result per unusable vector (or file), so the report loses nothing.
  package static func results(for problems: [VectorError]) -> [VectorResult] {
    VectorCatalog.group(problems).map { problems in
      VectorResult(
        id: problems[0].vectorID ?? problems[0].file, origin: .vectorFile, file: problems[0].file,
        message: problems.map(\.description).joined(separator: "\n"))
    }
  }

  static func describe(_ error: any Error) -> String {
    switch error {
    case let timeout as TimeoutError: timeout.description
    // The run was cancelled (through the API; the command line always gives a stop reason): no Swift type name.
    case is CancellationError: "did not answer: the run was cancelled while this step ran"
    case let error as any CustomStringConvertible: "threw: \(error.description)"
    default: "threw: \(error)"
    }
  }

  static func seconds(since start: DispatchTime) -> Double {
    Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
  }
}

/// Numbers each run of a vector, so an adapter can give it a handler of its own.
enum RunNumbers {
  private static let last = Locked(0)

  /// The next number, never given before in this process.
  static func next() -> Int {
    last.withLock {
      $0 += 1
      return $0
    }
  }
}
