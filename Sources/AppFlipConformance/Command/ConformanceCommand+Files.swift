import Foundation

extension ConformanceCommand {
  /// Merges shard JUnit files into one.
  static func mergeJUnit(into target: String, from inputs: [String], output: Output) -> ExitCode {
    do {
      let xml = try JUnitMerge.merge(inputs.map { URL(fileURLWithPath: $0) })
      try RunReports.write(Data(xml.utf8), to: target, what: "the merged JUnit report")
      output.out("Merged \(inputs.count) reports into \(target)")
      return .success
    } catch {
      output.err("error: \(ConsoleText.safe(String(describing: error)))")
      return .usage
    }
  }

  /// Writes the waivers a run needs (`RunReports.writeWaivers`) and prints what it wrote.
  static func writeWaivers(
    _ results: [VectorResult], updating waivers: WaiverFile?, to path: String, date: Date, output: Output
  ) throws(CommandError) {
    let (written, note) = try RunReports.writeWaivers(results, updating: waivers, to: path, date: date)
    output.out(written)
    if let note { output.err(note) }
  }

  /// Writes a waiver file for every test case a JUnit report shows as failed (errors and stale waivers get none), or,
  /// with `--waivers`, updates that file from the report.
  static func writeWaivers(
    fromReport report: String, updating waiversPath: String?, to target: String, output: Output
  ) -> ExitCode {
    do {
      let results = try JUnitMerge.failedTestCases(in: URL(fileURLWithPath: report))
      let waivers = try waiversPath.map { try WaiverFile.load(URL(fileURLWithPath: $0)) }
      try writeWaivers(results, updating: waivers, to: target, date: Date(), output: output)
      return .success
    } catch {
      output.err("error: \(ConsoleText.safe(String(describing: error)))")
      return .usage
    }
  }
}
