import AppFlip
import Foundation

/// Generates links around the partner's configuration, judges every answer by the rules oracle, shrinks each failure
/// to its smallest link, and keeps one vector per distinct finding (a rule and the field it breaks).
package struct Fuzzer: Sendable {
  /// One distinct failure: the rule and field it breaks, and the smallest vector that shows it.
  package struct Finding: Sendable {
    /// `rule field`, e.g. `AF-RU-4 opened`; an error (crash, hang) is `error`.
    package var key: String
    /// The shrunk vector; it loads with `--vectors` and fails the same way.
    package var vector: Vector
    /// The result of the shrunk vector, under the vector's id.
    package var result: VectorResult
    /// How many links were generated before it was found.
    package var foundAfter: Int
  }

  /// What a fuzzing run did.
  package struct Report: Sendable {
    /// How many cases were generated and judged.
    package var cases: Int
    /// How many links they held.
    package var links: Int
    /// One finding per distinct failure, in the order of the cases that first showed them.
    package var findings: [Finding]
    /// Seconds the run took.
    package var seconds: Double
  }

  /// The implementations under test, one per worker (`fuzz --jobs N`): the links of a run are split over them.
  package var adapters: [any ConformanceAdapter]
  /// The first worker's implementation, which names them all in reports.
  package var adapter: any ConformanceAdapter { adapters[0] }
  /// The partner configuration links are built from.
  package var configuration: PartnerConfiguration
  /// The seed: the same seed generates the same links.
  package var seed: UInt64
  /// Seconds one step may take.
  package var timeout: Double
  /// How many shrinking attempts one finding may take.
  package var shrinkBudget = 400

  /// A fuzzer whose workers each judge cases on an adapter of their own (each its own process, or its own handlers).
  package init(
    adapters: [any ConformanceAdapter], configuration: PartnerConfiguration, seed: UInt64, timeout: Double = 10
  ) {
    precondition(!adapters.isEmpty, "a fuzzer needs at least one adapter")
    (self.adapters, self.configuration, self.seed, self.timeout) = (adapters, configuration, seed, timeout)
  }

  /// Fuzzes until `links` links were sent or `seconds` passed (or `maxFindings` distinct findings were found).
  ///
  /// Each adapter's worker takes the next case number, generates that case on its own (`FuzzGenerator.fuzzCase(_:)`),
  /// judges it, and shrinks it when it is the first to show its finding, so the findings, their order and their shrunk
  /// vectors are the same whatever the number of adapters (`FuzzLedger`).
  package func run(
    links limit: Int? = nil, seconds: Double? = nil, maxFindings: Int = .max, control: RunControl = RunControl(),
    progress: @escaping @Sendable (Int, Int) -> Void = { _, _ in }
  ) async -> Report {
    let start = Date()
    let ledger = FuzzLedger(links: limit, maxFindings: maxFindings, progress: progress)
    let generator = FuzzGenerator(configuration: configuration, seed: seed)
    await withTaskGroup(of: Void.self) { group in
      for adapter in adapters {
        group.addTask {
          while control.stopReason == nil, seconds.map({ Date().timeIntervalSince(start) < $0 }) ?? true,
            let number = ledger.take()
          {
            let fuzzCase = generator.fuzzCase(number)
            let result = await judge(fuzzCase, number: number, on: adapter)
            guard let key = ledger.judged(number, links: fuzzCase.links.count, key: Self.key(of: result)) else {
              continue
            }
            var (smallest, smallestResult) = await shrink(fuzzCase, key: key, result: result, on: adapter)
            let vector = vector(for: smallest, key: key, result: smallestResult)
            // The result goes by the vector's id, as it does when the vector is loaded: what a waiver names.
            smallestResult.id = vector.id
            ledger.found(Finding(key: key, vector: vector, result: smallestResult, foundAfter: 0), case: number)
          }
        }
      }
    }
    let (cases, links, findings) = ledger.report()
    return Report(cases: cases, links: links, findings: findings, seconds: Date().timeIntervalSince(start))
  }

  /// What a result breaks: its first MUST finding's rule and field when it failed, its first SHOULD finding's when it
  /// warned, or `error`; `nil` when it passed.
  static func key(of result: VectorResult) -> String? {
    let level: Level
    switch result.status {
    case .error: return "error"
    case .failed: level = .must
    case .warning: level = .should
    default: return nil
    }
    guard let finding = result.findings.first(where: { $0.level == level }) else { return nil }
    let field = finding.field.hasPrefix("steps[") ? String(finding.field.drop { $0 != "." }.dropFirst()) : finding.field
    return "\(finding.rule) \(field)"
  }

  func judge(_ fuzzCase: FuzzCase, number: Int, on adapter: any ConformanceAdapter) async -> VectorResult {
    let vector = fuzzCase.vector(
      id: "fuzz/case-\(number)", description: "A generated case.", configuration: configuration)
    let runner = Runner(adapter: adapter, configuration: configuration, timeout: timeout)
    return await runner.run(LoadedVector(vector: vector, file: "fuzz", area: "fuzz"))
  }

  /// Tries smaller cases while they fail with the same key, simplest reduction first.
  func shrink(_ fuzzCase: FuzzCase, key: String, result: VectorResult, on adapter: any ConformanceAdapter) async
    -> (FuzzCase, VectorResult)
  {
    var best = fuzzCase
    var bestResult = result
    var budget = shrinkBudget
    var improved = true
    while improved && budget > 0 {
      improved = false
      for candidate in best.reductions {
        budget -= 1
        let candidateResult = await judge(candidate, number: 0, on: adapter)
        if Self.key(of: candidateResult) == key {
          best = candidate
          bestResult = candidateResult
          improved = true
          break
        }
        if budget <= 0 { break }
      }
    }
    return (best, bestResult)
  }

  /// A sentence cut to 300 characters, so a description stays readable whatever the handler answered.
  static func capped(_ text: String) -> String {
    text.count <= 300 ? text : String(text.prefix(300)) + "…"
  }

  /// The shrunk case as a vector a partner can keep: a stable id from what it asserts, a description naming the rule.
  func vector(for fuzzCase: FuzzCase, key: String, result: VectorResult) -> Vector {
    let finding = result.findings.first { $0.level == .must } ?? result.findings.first
    let rule = finding?.rule ?? "AF-IN-6"
    let what = Self.capped(
      finding.map { "\($0.message) (\($0.field): expected \($0.expected), got \($0.actual))" } ?? result.message)
    var vector = fuzzCase.vector(
      id: "fuzz", description: "Found by fuzzing with seed \(seed), under \(rule): \(what)",
      configuration: configuration)
    vector.rules = Array(Set(vector.rules + [rule])).sorted()
    let fingerprint = Fingerprint.of(vector).split(separator: ":").last.map { String($0.prefix(10)) } ?? "0"
    vector.id = "fuzz/\(rule.lowercased())/\(fingerprint)"
    if adapter.acceptsConfiguration {
      // The links carry the configured values; the vector brings them along so that it means the same under any
      // --config. Adapters that cannot take a configuration (subprocesses) need the same --config instead.
      vector.configuration = Vector.ConfigurationOverride(
        clientID: configuration.clientID, universalLink: configuration.universalLink,
        allowedRedirectURIs: configuration.allowList.urls,
        allowsUnlistedRedirectURIs: configuration.allowsUnlistedRedirectURIs ? true : nil)
    }
    return vector
  }
}
