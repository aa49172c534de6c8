import AppFlipConformance
import AppFlipConformanceTesting
import Foundation

/// How much of a `ConformanceHarness` run under Swift Testing goes to its JUnit report (issue 11: under 5 %).
enum HarnessShare {
  /// Runs every bundled vector through a harness against the reference handler, every case at once as Swift Testing
  /// runs them, writing JUnit to a temporary file; prints the seconds spent on JUnit (the crash journal, its in-place
  /// writes and the final report) against the whole run (the harness built, every case run, the reports written).
  static func print(_ options: BenchOptions) async {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "appflip-bench-harness-\(ProcessInfo.processInfo.processIdentifier)")
    defer { try? FileManager.default.removeItem(at: folder) }
    var shares: [Double] = []
    var runs: [Double] = []
    var junits: [Double] = []
    for round in 0..<options.rounds {
      let start = DispatchTime.now().uptimeNanoseconds
      let harness = ConformanceHarness(
        name: "bench-\(round)", handler: ReferenceHandlerAdapter(),
        options: ConformanceOptions(junit: folder.appendingPathComponent("{name}.xml").path))
      await withTaskGroup(of: Void.self) { group in
        for testCase in harness.cases { group.addTask { _ = await harness.run(testCase) } }
      }
      let run = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
      runs.append(run)
      junits.append(harness.junitSeconds)
      shares.append(harness.junitSeconds / run)
    }
    Swift.print(
      Format.row(
        "harness JUnit share",
        String(format: "%.1f %%", Format.median(shares) * 100)
          + ": \(Format.seconds(Format.median(junits))) JUnit of a \(Format.seconds(Format.median(runs))) "
          + "harness run, no Swift Testing in it; median of \(options.rounds) (issue 11's figure, a partner's swift test: "
          + "--only swifttest)"))
  }
}
