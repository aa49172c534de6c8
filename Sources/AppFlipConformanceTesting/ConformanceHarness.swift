import AppFlipConformance
import Foundation
import Testing

/// Runs App Flip vectors against an implementation from a Swift Testing target, one test case per vector, and writes JUnit as it goes.
///
/// ```swift
/// let appFlip = ConformanceHarness(handler: MyAppFlipHandler())
///
/// @Test("App Flip conformance", arguments: appFlip.cases)
/// func appFlipConformance(_ vector: ConformanceCase) async { await appFlip.check(vector) }
/// ```
public final class ConformanceHarness: Sendable {
  /// The cases to pass as `arguments:`: every selected vector, then every unusable vector file.
  public let cases: [ConformanceCase]
  /// The runner that judges each vector.
  public let runner: Runner
  /// Where the JUnit report is kept current: rewritten as each case starts (so a crash names it) and when the last ends; `nil` writes none.
  public let junitURL: URL?
  /// The expected failures: waived ones pass as skipped, a waiver whose vector passes fails (stale).
  public let waivers: WaiverFile?
  private let waiversPath: String
  private let journal: RunJournal

  /// Creates a harness for an in-process handler.
  ///
  /// - Parameters:
  ///   - handler: the partner's handler, wrapped as an `AppFlipHandler`.
  ///   - configuration: the partner's client id, universal link and allow-list.
  ///   - vectors: extra vector files or folders, loaded like the bundled ones.
  ///   - bundled: whether to include the bundled vectors.
  ///   - filter: which vectors to run.
  ///   - junit: where to write JUnit, relative to the working directory (the package root under `swift test`).
  ///   - strict: whether SHOULD findings fail.
  ///   - timeout: seconds one step may take.
  ///   - waivers: a waiver file: waived failures pass as skipped, stale or unmatched waivers fail; errors stay errors.
  ///   - platform: the app's target (`.ios16`, `.ios17`, `.android`): vectors whose links it cannot deliver are skipped.
  ///
  /// The configuration is checked first (`ConfigurationCheck`): each of its problems is a failing case, so a bad
  /// configuration is never blamed on the handler; a filter that selects no vector is a failing case too.
  public convenience init(
    handler: some AppFlipHandler, configuration: PartnerConfiguration = .default, vectors: [URL] = [],
    bundled: Bool = true, filter: VectorFilter = VectorFilter(),
    junit: String? = "Reports/appflip-conformance-swift-testing.xml", strict: Bool = false, timeout: Double = 10,
    waivers: URL? = nil, platform: DeliveryPlatform? = nil
  ) {
    self.init(
      adapter: InProcessAdapter(handler), configuration: configuration, vectors: vectors, bundled: bundled,
      filter: filter, junit: junit, strict: strict, timeout: timeout, waivers: waivers, platform: platform)
  }

  /// Creates a harness that builds the partner's handler for each configuration, so vectors with their own configuration run too.
  public convenience init(
    makeHandler: @escaping @Sendable (PartnerConfiguration) -> some AppFlipHandler,
    configuration: PartnerConfiguration = .default, vectors: [URL] = [], bundled: Bool = true,
    filter: VectorFilter = VectorFilter(), junit: String? = "Reports/appflip-conformance-swift-testing.xml",
    strict: Bool = false, timeout: Double = 10, waivers: URL? = nil, platform: DeliveryPlatform? = nil
  ) {
    self.init(
      adapter: InProcessAdapter(make: makeHandler), configuration: configuration, vectors: vectors, bundled: bundled,
      filter: filter, junit: junit, strict: strict, timeout: timeout, waivers: waivers, platform: platform)
  }

  /// Creates a harness for any adapter (in-process, subprocess, HTTP).
  public init(
    adapter: any ConformanceAdapter, configuration: PartnerConfiguration = .default, vectors: [URL] = [],
    bundled: Bool = true, filter: VectorFilter = VectorFilter(),
    junit: String? = "Reports/appflip-conformance-swift-testing.xml", strict: Bool = false, timeout: Double = 10,
    waivers: URL? = nil, platform: DeliveryPlatform? = nil
  ) {
    var loaded = bundled ? VectorLoader.loadBundled(adapter.profile) : VectorCatalog()
    for url in vectors { loaded.merge(VectorLoader.load(url, displayPath: url.path)) }
    let catalog = filter.apply(to: loaded)
    var waiverCases: [ConformanceCase] = []
    var waiverFile: WaiverFile?
    if let waivers {
      do {
        let file = try WaiverFile.load(waivers)
        waiverFile = file
        for waiver in file.unmatched(loadedIDs: loaded.vectors.map(\.vector.id)) {
          waiverCases.append(
            ConformanceCase(
              waiver: "waiver \(waiver.id)",
              problem: "\(waivers.path): waiver \"\(waiver.id)\" matches no vector; fix the id or remove the waiver."))
        }
      } catch {
        waiverCases.append(ConformanceCase(waiver: waivers.path, problem: error.description))
      }
    }
    let check = ConfigurationCheck(allowsUnlistedRedirectURIs: configuration.allowsUnlistedRedirectURIs)
    waiverCases += check.problems(in: configuration).map(ConformanceCase.init(configuration:))
    if let empty = EmptySelection.check(filter: filter, shard: nil, loaded: loaded, selected: catalog) {
      waiverCases.append(ConformanceCase(selection: empty))
    }
    self.waivers = waiverFile
    waiversPath = waivers?.path ?? ""
    let unnumbered =
      catalog.vectors.map(ConformanceCase.init(loaded:))
      + VectorCatalog.group(catalog.problems).map(ConformanceCase.init(problems:)) + waiverCases
    cases = unnumbered.enumerated().map { index, testCase in
      var numbered = testCase
      numbered.index = index
      return numbered
    }
    runner = Runner(
      adapter: adapter, configuration: configuration, timeout: timeout, strict: strict, platform: platform)
    junitURL = junit.map { URL(fileURLWithPath: $0) }
    let planned = cases.map { testCase in
      VectorResult(
        id: testCase.id,
        area: testCase.loaded?.area
          ?? (testCase.waiverProblem == nil ? VectorResult.Origin.vectorFile : .waiver).reportArea ?? "",
        file: testCase.loaded?.file ?? testCase.problems.first?.file ?? waivers?.path ?? "",
        level: testCase.loaded?.vector.level ?? .must, status: .skipped)
    }
    journal = RunJournal(planned: planned, path: junitURL?.path, implementation: adapter.name)
  }

  /// Runs one case and records an issue when it fails or errors; warnings are printed, not failed, unless `strict`.
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
        sourceLocation: sourceLocation)
    }
  }

  /// Runs one case and returns its result, recording it in the JUnit report.
  public func run(_ testCase: ConformanceCase) async -> VectorResult {
    var result: VectorResult
    journal.start(testCase.index)
    if let loaded = testCase.loaded {
      result = await runner.run(loaded)
      if let waivers { result = waivers.apply(to: result, file: waiversPath) }
    } else if let problem = testCase.waiverProblem {
      result = VectorResult(
        id: testCase.id, origin: testCase.problemOrigin, file: testCase.problemOrigin == .waiver ? waiversPath : "",
        message: problem)
    } else {
      result = Runner.results(for: testCase.problems)[0]
    }
    journal.finish(testCase.index, result)
    if let problem = journal.writeError {
      Issue.record(Comment(rawValue: problem.description))
    }
    return result
  }
}
