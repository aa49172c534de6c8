import Foundation

/// A run's record as the run goes, kept on disk as its JUnit report, so that a process that ends in the middle (a
/// handler's `fatalError` or force unwrap, which nothing can catch, or a `kill -9`) leaves a report naming the vectors
/// that were running, with the results of those that ended and the rest as not run.
///
/// The report is written once at the start: every case on a line of its own, as not run, padded to the length of its
/// running line. From then on the journal appends what happens, in bytes of that case alone: a case that starts has its
/// line overwritten as running; a case that ends has its result appended after the last one (the closing tags written
/// again behind it), then its line blanked (a result amended later, by a late fault, blanks the one appended before).
/// A run of n cases writes bytes in proportion to n, and the report is valid JUnit after each write.
///
/// When the run ends, the final JUnit report, rendered from the results, replaces this one.
///
/// Cases can be added as the run goes (`add`), so a run need not know its vectors before it starts: each is appended
/// as a not-run line after the results so far, and the header's counts, written with leading zeros to a fixed width,
/// are written again in place.
package final class RunJournal: @unchecked Sendable {
  private static let notRun = "not run: the run ended before this vector (the process crashed or was killed)"
  private static let running =
    "the process ended while this vector ran: the handler crashed (or the run was killed); run it alone to see why"
  private static let tail = Array("  </testsuite>\n</testsuites>\n".utf8)
  /// How a case's line says how it ended, not run or running; the rest of the line is the same.
  private static let states = (
    notRun: "<skipped message=\"\(notRun)\"/>",
    running: "<error type=\"implementation-error\" message=\"\(running)\"/>"
  )
  /// How much longer a running line is than a not-run one.
  private static let padding = states.running.utf8.count - states.notRun.utf8.count
  /// What a case's line ends with once it runs, from where the two differ.
  private static let runningEnd = Array((states.running + "</testcase>").utf8)

  private let lock = NSLock()
  private var current: RunRecord
  private var done: [Bool]
  private var unfinished: Int
  private var descriptor: Int32 = -1
  /// Where each case's line starts, where its state starts, and its length without the newline.
  private var lines: [(offset: Int, state: Int, length: Int)] = []
  /// Where each case's result was appended, once it was.
  private var appended: [Range<Int>?]
  /// Where the next result is appended, before the closing tags.
  private var appendAt = 0
  private var written = 0
  private var spent: UInt64 = 0
  /// Where the header's case counts are (`tests` twice, `skipped`), each ten digits.
  private var counts: [Int] = []

  /// A journal of `record`, whose results are the cases as planned, in report order, written to `path` when it names
  /// a regular file (or nothing yet); `nil` keeps the record in memory only. Every case starts as not run.
  package init(_ record: RunRecord, path: String?) {
    current = record
    current.results = record.results.map(Self.notRun)
    done = Array(repeating: false, count: record.results.count)
    appended = Array(repeating: nil, count: record.results.count)
    unfinished = record.results.count
    guard let path, ReportFile.isReplaceable(path) else { return }
    let start = DispatchTime.now().uptimeNanoseconds
    defer { spent += DispatchTime.now().uptimeNanoseconds - start }
    let count = current.results.count
    let xml = XMLBuffer(capacity: count * 320 + 1_024)
    xml.markup("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"")
    xml.attribute(SuiteInfo.name)
    let digits = Self.digits(count)
    xml.raw("\" tests=\"")
    counts.append(xml.count)
    xml.raw(digits + "\" failures=\"0\" errors=\"0\" time=\"0\">\n  <testsuite name=\"")
    xml.attribute(SuiteInfo.name)
    xml.raw("\" tests=\"")
    counts.append(xml.count)
    xml.raw(digits + "\" failures=\"0\" errors=\"0\" skipped=\"")
    counts.append(xml.count)
    xml.raw(digits + "\" time=\"0\" timestamp=\"")
    xml.raw(Timestamp.withoutZone(current.startedAt))
    xml.markup("\">\n    <properties>\n      <property name=\"suite.version\" value=\"")
    xml.attribute(SuiteInfo.version)
    xml.markup("\"/>\n      <property name=\"implementation\" value=\"")
    xml.attribute(Quoted.cut(current.implementation, limit: JUnitReport.maxMessage))
    xml.markup("\"/>\n    </properties>\n")
    lines.reserveCapacity(count)
    appendLines(current.results[...], into: xml, at: 0)
    appendAt = xml.count
    xml.raw(Self.tail)
    do {
      try ReportFile.write(xml.data, to: path)
    } catch {
      return
    }
    written = xml.count
    descriptor = open(path, O_RDWR)
  }

  deinit { end() }

  /// Adds cases after those planned so far, as not run, each on a line of its own; the index of the first.
  @discardableResult
  package func add(_ planned: [VectorResult]) -> Int {
    lock.withLock {
      let first = current.results.count
      current.results += planned.map(Self.notRun)
      done += repeatElement(false, count: planned.count)
      appended += repeatElement(nil, count: planned.count)
      unfinished += planned.count
      guard descriptor >= 0, !planned.isEmpty else { return first }
      let start = DispatchTime.now().uptimeNanoseconds
      defer { spent += DispatchTime.now().uptimeNanoseconds - start }
      let xml = XMLBuffer(capacity: planned.count * 320 + Self.tail.count)
      appendLines(current.results[first...], into: xml, at: appendAt)
      let length = xml.count
      xml.raw(Self.tail)
      xml.data.withUnsafeBytes { write($0, at: appendAt) }
      appendAt += length
      let digits = Array(Self.digits(current.results.count).utf8)
      for offset in counts { digits.withUnsafeBytes { write($0, at: offset) } }
      return first
    }
  }

  /// A count as the header writes it: ten digits with leading zeros, so that a larger one takes its place.
  private static func digits(_ count: Int) -> String { String(format: "%010ld", count) }

  /// A planned case as the journal lists it until it runs: not run.
  private static func notRun(_ planned: VectorResult) -> VectorResult {
    var result = planned
    result.status = .skipped
    result.findings = []
    result.message = notRun
    result.isNotRun = true
    return result
  }

  /// Appends the not-run line of each case into `xml`, noting where each starts, `xml` being written at `offset`.
  private func appendLines(_ results: ArraySlice<VectorResult>, into xml: XMLBuffer, at offset: Int) {
    for result in results {
      let line = xml.count
      JUnitReport.testcaseStart(result, into: xml)
      xml.markup("0\">")
      let state = xml.count
      xml.raw(Self.states.notRun)
      xml.markup("</testcase>")
      for _ in 0..<Self.padding { xml.append(UInt8(ascii: " ")) }
      lines.append((offset + line, offset + state, xml.count - line))
      xml.append(UInt8(ascii: "\n"))
    }
  }

  /// Marks the case at `index` running: its line says so, should the process end now.
  package func start(_ index: Int) {
    lock.withLock {
      guard done.indices.contains(index), !done[index], descriptor >= 0 else { return }
      let start = DispatchTime.now().uptimeNanoseconds
      defer { spent += DispatchTime.now().uptimeNanoseconds - start }
      Self.runningEnd.withUnsafeBytes { write($0, at: lines[index].state) }
    }
  }

  /// Records the result of the case at `index`, appending it to the report; true when it was the last case open. A
  /// case already finished gets this result in place of its earlier one.
  @discardableResult
  package func finish(_ index: Int, _ result: VectorResult) -> Bool {
    lock.withLock {
      guard done.indices.contains(index) else { return false }
      let first = !done[index]
      if first { unfinished -= 1 }
      done[index] = true
      current.results[index] = result
      guard descriptor >= 0 else { return first && unfinished == 0 }
      let start = DispatchTime.now().uptimeNanoseconds
      defer { spent += DispatchTime.now().uptimeNanoseconds - start }
      let xml = XMLBuffer(capacity: 1_024)
      JUnitReport.testcase(result, into: xml)
      let element = xml.count
      xml.raw(Self.tail)
      // Appended first, then the line or earlier result blanked: a crash in between lists the case twice, never not at
      // all.
      xml.data.withUnsafeBytes { write($0, at: appendAt) }
      let before = appended[index] ?? lines[index].offset..<(lines[index].offset + lines[index].length)
      appended[index] = appendAt..<(appendAt + element)
      appendAt += element
      [UInt8](repeating: UInt8(ascii: " "), count: before.count).withUnsafeBytes { write($0, at: before.lowerBound) }
      return first && unfinished == 0
    }
  }

  /// The record: the results of the cases that ended, and the rest as not run.
  package var record: RunRecord { lock.withLock { current } }

  /// The bytes written to the report so far.
  package var bytesWritten: Int { lock.withLock { written } }

  /// The seconds spent rendering and writing the report so far (the benchmark's "harness JUnit share").
  package var seconds: Double { lock.withLock { Double(spent) / 1e9 } }

  /// Stops writing: the finished report is about to replace this one.
  package func end() {
    lock.withLock(stop)
  }

  /// Closes the file (call with the lock held).
  private func stop() {
    if descriptor >= 0 { _ = close(descriptor) }
    descriptor = -1
  }

  /// Writes `bytes` at `offset`; a write that fails ends the journal (the final report is still written). Call with
  /// the lock held.
  private func write(_ bytes: UnsafeRawBufferPointer, at offset: Int) {
    var done = 0
    while done < bytes.count, descriptor >= 0 {
      let count = pwrite(descriptor, bytes.baseAddress! + done, bytes.count - done, off_t(offset + done))
      if count < 0 && errno == EINTR { continue }
      guard count > 0 else { return stop() }
      done += count
      written += count
    }
  }
}
