import AppFlipConformance
import Foundation

/// Keeps a harness's JUnit report on disk able to tell a crash, at one small write per case: a handler that crashes
/// the process (a `fatalError`, a force unwrap: nothing can catch it) leaves a report naming the vector that was
/// running and the rest as not run.
///
/// The report is written once at the start with every case as not run, each `<testcase>` padded to the length of its
/// longest state; as a case starts and ends, only its element is overwritten in place. The whole report, with every
/// result, is written once at the end (`RunReports`).
final class HarnessJournal: @unchecked Sendable {
  /// Where a case stands, in the order of `variants`.
  private enum State: Int { case planned, running, done }

  private let lock = NSLock()
  private var handle: FileHandle?
  private var offsets: [UInt64] = []
  private var variants: [[Data]] = []

  /// Writes the report of `planned` cases (in report order) to `path`, every case not run; `nil` keeps none.
  init(planned: [VectorResult], path: String?, implementation: String) {
    guard let path, ReportFile.isReplaceable(path) else { return }
    // Each case's element is rendered once; its other states differ only in the line that says how it ended.
    let planned = planned.map { Self.state($0, .skipped, Self.notRun) }
    var ends = [Self.notRun, Self.running, Self.notReported].map { "      <skipped message=\"\($0)\"/>\n" }
    ends[1] = "      <error type=\"implementation-error\" message=\"\(Self.running)\">\(Self.running)</error>\n"
    variants = planned.map { result in
      let element = JUnitReport.testcase(result)
      let states = ends.map { Data(element.replacingOccurrences(of: ends[0], with: $0).utf8) }
      let width = states.map(\.count).max() ?? 0
      return states.map { element in
        element.dropLast() + Data(repeating: UInt8(ascii: " "), count: width - element.count) + Data("\n".utf8)
      }
    }
    // The document with a marker (\u{1}INDEX\u{1}) for each element, spliced byte by byte.
    let marked = Array(JUnitReport.render(planned, implementation: implementation) { "\u{1}\($0)\u{1}" }.utf8)
    var document = Data(capacity: marked.count + variants.reduce(0) { $0 + $1[0].count })
    offsets = Array(repeating: 0, count: variants.count)
    var position = 0
    while let open = marked[position...].firstIndex(of: 1) {
      document.append(contentsOf: marked[position..<open])
      guard let close = marked[(open + 1)...].firstIndex(of: 1) else { break }
      if let index = Int(String(decoding: marked[(open + 1)..<close], as: UTF8.self)), variants.indices.contains(index)
      {
        offsets[index] = UInt64(document.count)
        document.append(variants[index][State.planned.rawValue])
      }
      position = close + 1
    }
    document.append(contentsOf: marked[position...])
    guard (try? ReportFile.write(document, to: path)) != nil else { return }
    handle = FileHandle(forUpdatingAtPath: path)
  }

  /// Marks the case at `index` running.
  func start(_ index: Int) { write(index, .running) }

  /// Marks the case at `index` done.
  func finish(_ index: Int) { write(index, .done) }

  /// Stops writing in place (the whole report is about to replace the file).
  func close() {
    lock.withLock {
      try? handle?.close()
      handle = nil
    }
  }

  private func write(_ index: Int, _ state: State) {
    lock.withLock {
      guard let handle, offsets.indices.contains(index) else { return }
      do {
        try handle.seek(toOffset: offsets[index])
        try handle.write(contentsOf: variants[index][state.rawValue])
      } catch {
        try? handle.close()
        self.handle = nil
      }
    }
  }

  private static let notRun = "not run: the run ended before this vector (the process crashed or was killed)"
  private static let running =
    "the process ended while this vector ran: the handler crashed (or the run was killed); run it alone to see why"
  private static let notReported =
    "not reported: this vector ran, but the process ended before the report was written (the handler crashed on "
    + "another vector, or the run was killed)"

  private static func state(_ result: VectorResult, _ status: Status, _ message: String) -> VectorResult {
    var result = result
    result.status = status
    result.findings = []
    result.message = message
    return result
  }
}
