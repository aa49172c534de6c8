import Foundation

/// Runs a catalog's vectors on several runners at once, each with an adapter of its own (`--jobs N`): each vector runs
/// whole on one of them, and the results come back in the catalog's order, as one runner gives them.
///
/// Each runner should hold its own implementation: a subprocess adapter its own process, an in-process adapter its own
/// handlers (Docs/PROTOCOL.md, "Parallel runs"). With one runner it is `Runner.run(_:control:onResult:)`.
package struct ParallelRunner: Sendable {
  /// One runner per worker.
  package var runners: [Runner]

  /// Creates a parallel runner; it needs at least one runner.
  package init(runners: [Runner]) {
    precondition(!runners.isEmpty, "a parallel runner needs at least one runner")
    self.runners = runners
  }

  /// Runs every vector of a catalog, its problems first as errors; `onResult` sees each result as it comes (in the
  /// order they finish), the returned results are in the catalog's order.
  ///
  /// When `control` asks to stop, the vectors not started yet are reported as skipped, "not run".
  ///
  /// `onStart` sees each vector before it runs; when the task is cancelled (SIGINT, SIGTERM), the steps in flight are
  /// abandoned at once and their vectors reported as not run, as `Runner.run(_:control:onStart:onResult:)` does.
  package func run(
    _ catalog: VectorCatalog, control: RunControl = RunControl(),
    onStart: @escaping @Sendable (LoadedVector) -> Void = { _ in },
    onResult: @escaping @Sendable (VectorResult) -> Void = { _ in }
  ) async -> [VectorResult] {
    let problems = Runner.results(for: catalog.problems)
    problems.forEach(onResult)
    let vectors = catalog.vectors
    if !runners.contains(where: { $0.adapter is SubprocessAdapter }) {
      let run = CatalogRun(runners: runners, vectors: vectors, control: control, onStart: onStart, onResult: onResult)
      return problems + (await run.run())
    }
    let next = NextIndex()
    let results = await withTaskGroup(of: [(Int, VectorResult)].self) { group in
      for runner in runners {
        group.addTask {
          // Over --exec, a vector's result is held until the next vector ran on the same process: an implementation
          // that answers a request twice shows it while the next one runs, and the fault belongs to the first.
          let subprocess = runner.adapter as? SubprocessAdapter
          var done: [(Int, VectorResult)] = []
          var held: (Int, VectorResult)?
          func release(grace: Double) {
            guard let (index, result) = held else { return }
            let checked = subprocess.map { Self.attribute($0, to: result, grace: grace) } ?? result
            onResult(checked)
            done.append((index, checked))
            held = nil
          }
          while let index = next.take(below: vectors.count) {
            let loaded = vectors[index]
            let result = await runner.run(loaded, control: control, onStart: onStart)
            release(grace: 0)
            held = (index, result)
            if subprocess == nil { release(grace: 0) }
          }
          release(grace: Self.settleGrace)
          return done
        }
      }
      var all: [(Int, VectorResult)] = []
      for await done in group { all += done }
      return all.sorted { $0.0 < $1.0 }.map(\.1)
    }
    return problems + results
  }
}

extension ParallelRunner {
  /// How long a worker waits, after its last vector, for a second answer the implementation may still write.
  static let settleGrace = 0.05

  /// The result, as an error when the implementation showed a fault on its vector after answering it.
  static func attribute(_ adapter: SubprocessAdapter, to result: VectorResult, grace: Double) -> VectorResult {
    guard let fault = adapter.lateFault(vectorID: result.id, grace: grace), result.status != .error else {
      return result
    }
    var faulted = result
    faulted.status = .error
    faulted.findings = []
    faulted.message = "the implementation \(Runner.describe(fault))"
    faulted.diagnostics = [result.diagnostics, fault.diagnostics].filter { !$0.isEmpty }.joined(separator: "\n")
    return faulted
  }
}

extension Runner {
  /// A vector left out because the run was asked to stop: skipped, "not run: REASON".
  static func notRun(_ loaded: LoadedVector, reason: String) -> VectorResult {
    var result = VectorResult(
      id: loaded.vector.id, area: loaded.area, file: loaded.file, level: loaded.vector.level, spec: loaded.vector.spec,
      tags: loaded.vector.tags, flags: loaded.vector.flags, status: .skipped, message: "not run: \(reason)",
      rules: loaded.vector.rules)
    result.isNotRun = true
    return result
  }
}

/// Hands out the catalog's indexes, each once, to the workers.
private final class NextIndex: Sendable {
  private let next = Locked(0)

  /// The next index, or nil once `count` are given out.
  func take(below count: Int) -> Int? {
    next.withLock { next in
      guard next < count else { return nil }
      defer { next += 1 }
      return next
    }
  }
}
