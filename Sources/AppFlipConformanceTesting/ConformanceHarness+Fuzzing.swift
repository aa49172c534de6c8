import AppFlipConformance
import Foundation
import Testing

extension ConformanceHarness {
  /// Fuzzes the harness's implementation with links generated around its configuration, judged by the rules, and
  /// records one issue per distinct finding, naming the rule and the file its shrunk vector was written to; a finding
  /// the harness's waiver file covers (its vector id, e.g. `fuzz/af-re-5/*`) is printed as waived instead.
  ///
  /// ```swift
  /// @Test("App Flip fuzzing") func appFlipFuzzing() async { await appFlip.fuzz(links: 20_000) }
  /// ```
  ///
  /// - Parameters:
  ///   - links: stop after this many links.
  ///   - seconds: stop after this many seconds instead, if given first.
  ///   - seed: the same seed generates the same links.
  ///   - configuration: the configuration links are built from; the harness's by default.
  ///   - findings: the folder each shrunk vector is written to, one vector file per finding, relative to the working
  ///     directory; load one with `--vectors` or `vectors:` to keep it as a regression test.
  /// - Returns: how many distinct findings were recorded (warnings are printed, not recorded, unless `strict`).
  @discardableResult
  public func fuzz(
    links: Int = 10_000, seconds: Double? = nil, seed: UInt64 = 1, configuration: PartnerConfiguration? = nil,
    findings: String = "Reports/fuzz", sourceLocation: SourceLocation = #_sourceLocation
  ) async -> Int {
    let configuration = configuration ?? runner.configuration
    let fuzzer = Fuzzer(adapters: [runner.adapter], configuration: configuration, seed: seed, timeout: runner.timeout)
    let report = await fuzzer.run(links: seconds == nil ? links : nil, seconds: seconds)
    var recorded = 0
    for finding in report.findings {
      let path = Self.write(finding.vector, seed: seed, into: findings)
      let line =
        "\(finding.key): \(finding.vector.id) \(finding.result.status.rawValue) after \(finding.foundAfter) links "
        + "(seed \(seed)): \(finding.vector.description)\n"
        + (path.map { "The shrunk vector: \($0); load it with --vectors to keep it." } ?? "")
      if let waived = waivers?.apply(to: finding.result, file: waiversPath), waived.status == .skipped {
        print("\(waived.message): \(line)")
        continue
      }
      if finding.result.status == .warning && !runner.strict {
        print("warning: \(line)")
        continue
      }
      recorded += 1
      Issue.record(Comment(rawValue: line), sourceLocation: sourceLocation)
    }
    return recorded
  }

  /// Writes one finding's vector as a vector file of its own (`ReportFile`); its path, or nil with an issue saying why.
  private static func write(_ vector: Vector, seed: UInt64, into folder: String) -> String? {
    let name = vector.id.map { $0.isLetter || $0.isNumber || $0 == "-" ? $0 : "-" }
    let path = URL(fileURLWithPath: folder).appendingPathComponent(String(name) + ".json").path
    let file = VectorFile(
      area: "fuzz", description: "Found by ConformanceHarness.fuzz with seed \(seed).", vectors: [vector])
    do {
      try ReportFile.write(ReportFile.json(file), to: path)
      return path
    } catch {
      let reason = (error as? ReportFile.WriteError)?.reason ?? "\(error)"
      Issue.record(
        Comment(
          rawValue: "could not write the fuzz finding \(vector.id) into \"\(folder)\": \(reason); "
            + "pass a writable folder as findings:"))
      return nil
    }
  }
}
