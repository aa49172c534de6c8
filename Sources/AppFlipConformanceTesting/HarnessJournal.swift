import AppFlipConformance
import Foundation

/// Keeps a harness's JUnit report on disk able to tell a crash, at one small write per case: a handler that crashes
/// the process (a `fatalError`, a force unwrap: nothing can catch it) leaves a report naming the vector that was
/// running and the rest as not run.
///
/// The report is written once at the start with every case as not run, the line of each `<testcase>` that says how it
/// ended padded to the length of its longest state; as a case starts and ends, only that line is overwritten in place.
/// The whole report, with every result and each vector's metadata, is written once at the end (`RunReports`); the
/// journal leaves the metadata out, so it is a quarter of the size and its in-place writes touch a quarter of the
/// pages (each first write to a page of a shared file mapping is a page fault, which the file system handles).
final class HarnessJournal: @unchecked Sendable {
  /// Where a case stands, in the order of `states`.
  private enum State: Int { case planned, running, done }

  private let lock = NSLock()
  private var handle: FileHandle?
  /// The file mapped shared into memory, when it could be: a state change is then a copy of a few bytes, which the
  /// kernel writes back even if the process crashes; otherwise each is a positioned write.
  private var mapping: (pointer: UnsafeMutableRawPointer, length: Int)?
  /// Where each case's state line starts; `nil` for one never overwritten (not laid out as expected).
  private var offsets: [UInt64?] = []
  /// Each state's line, padded to the same length, one after another (`width` bytes each); `nil` when none is kept.
  private var states: UnsafeMutablePointer<UInt8>?
  /// The length of each state's line.
  private var width = 0
  private var spent: UInt64 = 0

  /// The seconds spent rendering and writing the journal so far (the benchmark's "harness JUnit share").
  var seconds: Double { lock.withLock { Double(spent) / 1e9 } }

  /// Writes the report of `planned` cases (in report order) to `path`, every case not run; `nil` keeps none.
  init(planned: [VectorResult], path: String?, implementation: String) {
    guard let path, ReportFile.isReplaceable(path) else { return }
    let start = DispatchTime.now().uptimeNanoseconds
    defer { spent += DispatchTime.now().uptimeNanoseconds - start }
    // The document is rendered once, as bytes. The states of an element differ only in the line after its opening
    // tag, which says how the case ended: that line is padded with spaces to the longest state's, so a state change
    // overwrites just it, in place.
    var lines = [Self.notRun, Self.running, Self.notReported].map { Array("      <skipped message=\"\($0)\"/>".utf8) }
    lines[1] = Array("      <error type=\"implementation-error\" message=\"\(Self.running)\"/>".utf8)
    let width = lines.map(\.count).max() ?? 0
    let first = lines[0] + [UInt8(ascii: "\n")]
    self.width = width
    let states = UnsafeMutablePointer<UInt8>.allocate(capacity: lines.count * width)
    states.initialize(repeating: UInt8(ascii: " "), count: lines.count * width)
    for (index, line) in lines.enumerated() {
      line.withUnsafeBufferPointer { (states + index * width).update(from: $0.baseAddress!, count: $0.count) }
    }
    self.states = states
    let (rendered, elements) = JUnitReport.bytesWithElements(
      planned.map { Self.state($0, .skipped, Self.notRun) }, implementation: implementation, metadata: false)
    // Copied with memcpy into a buffer of the final size: under `swift test` (a debug build) a generic append would
    // move the report byte by byte, which cost more than everything else the harness writes.
    let padding = width - lines[0].count
    var offsets = [UInt64?](repeating: nil, count: elements.count)
    let document = [UInt8](unsafeUninitializedCapacity: rendered.count + elements.count * padding) { out, count in
      count = 0
      rendered.withUnsafeBufferPointer { bytes in
        guard let base = bytes.baseAddress, let target = out.baseAddress else { return }
        var copied = 0
        func copy(upTo end: Int) {
          memcpy(target + count, base + copied, end - copied)
          count += end - copied
          copied = end
        }
        for (index, range) in elements.enumerated() {
          guard let newline = memchr(base + range.lowerBound, 0x0A, range.count) else { continue }
          let line = base.distance(to: newline.assumingMemoryBound(to: UInt8.self)) + 1
          guard line + first.count <= range.upperBound, memcmp(base + line, first, first.count) == 0 else { continue }
          copy(upTo: line + lines[0].count)
          offsets[index] = UInt64(count - lines[0].count)
          memset(target + count, Int32(UInt8(ascii: " ")), padding)
          count += padding
        }
        copy(upTo: bytes.count)
      }
    }
    self.offsets = offsets
    guard (try? ReportFile.write(Data(document), to: path)) != nil else { return }
    handle = FileHandle(forUpdatingAtPath: path)
    if let handle, !document.isEmpty,
      let pointer = mmap(nil, document.count, PROT_READ | PROT_WRITE, MAP_SHARED, handle.fileDescriptor, 0),
      pointer != UnsafeMutableRawPointer(bitPattern: -1)
    {
      mapping = (pointer, document.count)
    }
  }

  /// Marks the case at `index` running.
  func start(_ index: Int) { write(index, .running) }

  /// Marks the case at `index` done.
  func finish(_ index: Int) { write(index, .done) }

  /// Stops writing in place (the whole report is about to replace the file).
  func close() {
    lock.withLock {
      if let mapping { munmap(mapping.pointer, mapping.length) }
      mapping = nil
      try? handle?.close()
      handle = nil
    }
  }

  deinit { states?.deallocate() }

  /// Overwrites the state line of the case at `index`: a copy into the mapped file, or one positioned write. Plain
  /// pointer work: under `swift test` (a debug build) it runs twice per case.
  private func write(_ index: Int, _ state: State) {
    lock.lock()
    defer { lock.unlock() }
    guard let handle, let states, index >= 0, index < offsets.count, let offset = offsets[index] else { return }
    let start = DispatchTime.now().uptimeNanoseconds
    defer { spent += DispatchTime.now().uptimeNanoseconds - start }
    let line = UnsafeRawPointer(states + state.rawValue * width)
    if let mapping, Int(offset) + width <= mapping.length {
      memcpy(mapping.pointer + Int(offset), line, width)
      return
    }
    if pwrite(handle.fileDescriptor, line, width, off_t(offset)) != width {
      try? handle.close()
      self.handle = nil
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
