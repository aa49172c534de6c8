import AppFlip
import Foundation

/// Runs vectors through an adapter, one step at a time, and judges each; a vector that throws or hangs is an error, never a crash of the run.
public struct Runner: Sendable {
  /// The implementation under test.
  public var adapter: any ConformanceAdapter
  /// The partner configuration vectors are rendered with.
  public var configuration: PartnerConfiguration
  /// Seconds one step may take before it counts as an error.
  public var timeout: Double
  /// Whether SHOULD findings fail a vector instead of warning.
  public var strict: Bool
  /// The platform the app targets: vectors whose links it cannot deliver are skipped; `nil` runs every vector.
  public var platform: DeliveryPlatform?
  /// When this runner last gave its thread back to the pool.
  let fairShare = FairShare()

  /// Creates a runner.
  public init(
    adapter: any ConformanceAdapter, configuration: PartnerConfiguration = .default, timeout: Double = 10,
    strict: Bool = false, platform: DeliveryPlatform? = nil
  ) {
    self.adapter = adapter
    self.configuration = configuration
    self.timeout = timeout
    self.strict = strict
    self.platform = platform
  }

  /// Runs every vector of a catalog in order, reporting its problems as errors first; `onResult` sees each result as it comes.
  ///
  /// When `control` asks to stop (an interruption, or too many failures), the vectors left are reported as skipped,
  /// "not run", so the report still lists every vector.
  ///
  /// `onStart` sees each vector before it runs (the journal that keeps the report current uses it). When the task is
  /// cancelled (SIGINT, SIGTERM), the step in flight is abandoned at once and its vector is reported as not run.
  public func run(
    _ catalog: VectorCatalog, control: RunControl = RunControl(),
    onStart: @escaping @Sendable (LoadedVector) -> Void = { _ in },
    onResult: @escaping @Sendable (VectorResult) -> Void = { _ in }
  ) async -> [VectorResult] {
    let problems = Runner.results(for: catalog.problems)
    problems.forEach(onResult)
    let run = CatalogRun(
      runners: [self], vectors: catalog.vectors, control: control, onStart: onStart, onResult: onResult)
    let results = await run.run()
    // Returned as they are when nothing comes first: `problems + results` copies (retains) every result.
    return problems.isEmpty ? results : problems + results
  }

  /// Runs one vector of a run under `control`: not run once it asks to stop, and reported as not run when the task
  /// is cancelled while the vector runs; the result is counted for `--max-failures`.
  package func run(
    _ loaded: LoadedVector, control: RunControl, onStart: @Sendable (LoadedVector) -> Void = { _ in }
  ) async -> VectorResult {
    await fairShare.yieldIfDue()
    if let reason = control.stopReason { return Runner.notRun(loaded, reason: reason.description) }
    onStart(loaded)
    var result = await run(loaded)
    if Task.isCancelled, let reason = control.stopReason { Runner.markNotRun(&result, reason: reason) }
    control.count(result)
    return result
  }

  /// Runs and judges one vector: plans it for the adapter (or skips it with the reason), sends its steps, and hands
  /// what the implementation did to the judge.
  public func run(_ loaded: LoadedVector) async -> VectorResult {
    await run(loaded, watch: nil)
  }

  /// Runs and judges one vector; with a `watch`, its steps are sent inline and the watch keeps their deadlines (a
  /// catalog run's worker), else each step runs under `withTimeout`.
  func run(_ loaded: LoadedVector, watch: StepWatch?) async -> VectorResult {
    let start = DispatchTime.now()
    let plan: VectorPlan
    switch VectorPlan.make(loaded, configuration: configuration, adapter: adapter, platform: platform) {
    case .failure(let skip):
      var result = Runner.result(loaded)
      result.status = .skipped
      result.message = skip.reason
      return result
    case .success(let planned):
      plan = planned
    }
    let run = RunNumbers.next()
    let observations =
      plan.vector.interleaved
      ? await handleConcurrently(plan.requests(run: run), watch: watch)
      : await handleInOrder(plan, run: run, watch: watch)
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
        var result = Runner.result(loaded)
        result.status = declined is ImplementationSkipped ? .skipped : .inconclusive
        result.message = String(describing: declined)
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
    var result = Runner.result(loaded)
    result.status = Runner.status(for: findings, strict: strict)
    result.findings = findings
    if result.status != .failed, let inconclusive {
      result.status = .inconclusive
      result.message = inconclusive
    }
    result.diagnostics = diagnostics
    result.duration = Runner.seconds(since: start)
    return result.withEvidence(plan, observations)
  }

  /// Sends a plan's steps one after another, numbered `run`, stopping at the first that fails to answer; with a
  /// `watch`, inline. Each request is made as its step is sent.
  func handleInOrder(_ plan: VectorPlan, run: Int, watch: StepWatch? = nil) async -> [Result<Observation, any Error>] {
    var results: [Result<Observation, any Error>] = []
    results.reserveCapacity(plan.steps.count)
    for index in plan.steps.indices {
      let request = plan.request(index, run: run)
      let result: Result<Observation, any Error>
      if let watch {
        watch.begin(step: index, prior: results)
        do {
          result = .success(try await adapter.handle(request))
        } catch {
          result = .failure(error)
        }
        watch.end()
      } else {
        result = await handle(request)
      }
      results.append(result)
      if case .failure = result { break }
    }
    return results
  }

  /// Sends every step at once, for interleaved vectors; results come back in step order.
  ///
  /// With a `watch` (a catalog run's worker), each step is a task of the group with no timeout of its own: the steps
  /// start together, so the watch keeps the one deadline they would each have had, and names the step that decides
  /// the result when it passes, as the first step in order that did not answer (see `CatalogRun.advance`). A
  /// subprocess keeps each step's deadline itself, so it is always sent as without a watch.
  func handleConcurrently(_ requests: [HandlerRequest], watch: StepWatch?) async -> [Result<Observation, any Error>] {
    guard let watch, !(adapter is SubprocessAdapter) else { return await handleConcurrently(requests) }
    watch.begin(step: 0, prior: [])
    let results = await withTaskGroup(of: (Int, Result<Observation, any Error>).self) { group in
      for (index, request) in requests.enumerated() {
        group.addTask { (index, await send(request)) }
      }
      var results = [Result<Observation, any Error>?](repeating: nil, count: requests.count)
      for await (index, result) in group {
        results[index] = result
        // The first step that did not answer, or failed, decides the result if the deadline passes.
        guard let deciding = results.firstIndex(where: { if case .success = $0 { false } else { true } }) else {
          continue
        }
        let failure: (any Error)? = if case .failure(let error)? = results[deciding] { error } else { nil }
        watch.advance(step: deciding, prior: results[..<deciding].compactMap { $0 }, failure: failure)
      }
      return results.compactMap { $0 }
    }
    watch.end()
    return results
  }

  /// Sends one step with no timeout of its own; what it answered or threw. (A task group's child that returned its
  /// tuple from inside a do/catch came back with a garbage index under -O, Swift 6.3.)
  func send(_ request: HandlerRequest) async -> Result<Observation, any Error> {
    do {
      return .success(try await adapter.handle(request))
    } catch {
      return .failure(error)
    }
  }

  /// Sends every step at once, each under its own timeout; results come back in step order.
  func handleConcurrently(_ requests: [HandlerRequest]) async -> [Result<Observation, any Error>] {
    await withTaskGroup(of: (Int, Result<Observation, any Error>).self) { group in
      for (index, request) in requests.enumerated() {
        group.addTask { (index, await handle(request)) }
      }
      var results: [(Int, Result<Observation, any Error>)] = []
      for await result in group { results.append(result) }
      return results.sorted { $0.0 < $1.0 }.map(\.1)
    }
  }

  /// Sends one step with the timeout.
  func handle(_ request: HandlerRequest) async -> Result<Observation, any Error> {
    let adapter = self.adapter
    if let subprocess = adapter as? SubprocessAdapter {
      // It keeps the deadline itself and never waits past it: no task (and no thread hand-off) per step.
      do {
        return .success(try await subprocess.handle(request, within: timeout))
      } catch {
        return .failure(Task.isCancelled ? CancellationError() : error)
      }
    }
    do {
      return .success(try await withTimeout(seconds: timeout) { try await adapter.handle(request) })
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
