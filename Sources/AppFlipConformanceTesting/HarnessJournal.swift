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
    variants = planned.map { result in
      let states = [
        Self.state(result, .skipped, "not run: the run ended before this vector (the process crashed or was killed)"),
        Self.state(
          result, .error,
          "the process ended while this vector ran: the handler crashed (or the run was killed); run it alone to see why"
        ),
        Self.state(
          result, .skipped,
          "not reported: this vector ran, but the process ended before the report was written (the handler crashed "
            + "on another vector, or the run was killed)"),
      ].map { Data(JUnitReport.testcase($0).utf8) }
      let width = states.map(\.count).max() ?? 0
      return states.map { element in
        element.dropLast() + Data(repeating: UInt8(ascii: " "), count: width - element.count) + Data("\n".utf8)
      }
    }
    let marked = JUnitReport.render(planned, implementation: implementation) { "\u{1}\($0)\u{1}" }
    var document = Data()
    for (position, piece) in marked.split(separator: "\u{1}", omittingEmptySubsequences: false).enumerated() {
      if position % 2 == 0 {
        document += Data(piece.utf8)
      } else if let index = Int(piece), variants.indices.contains(index) {
        document += variants[index][State.planned.rawValue]
      }
    }
    offsets = Self.offsets(in: marked, variants: variants)
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

  /// The byte offset of each case's element in the document rendered with markers.
  private static func offsets(in marked: String, variants: [[Data]]) -> [UInt64] {
    var offsets = [UInt64](repeating: 0, count: variants.count)
    var position = 0
    for (part, piece) in marked.split(separator: "\u{1}", omittingEmptySubsequences: false).enumerated() {
      if part % 2 == 0 {
        position += piece.utf8.count
      } else if let index = Int(piece), variants.indices.contains(index) {
        offsets[index] = UInt64(position)
        position += variants[index][0].count
      }
    }
    return offsets
  }

  private static func state(_ result: VectorResult, _ status: Status, _ message: String) -> VectorResult {
    var result = result
    result.status = status
    result.findings = []
    result.message = message
    return result
  }
}
