import Foundation

/// One running implementation: `/bin/sh -c "exec COMMAND"` and its three pipes, never waited on past a deadline. It
/// leads its own process group, and is killed with that group, so nothing it started outlives it.
///
/// Every pipe is non-blocking and served by one `poll` loop: while the harness writes a request or waits for a line it
/// also drains stderr (into an 8 KB tail) and stdout (into a line buffer), so a child that floods either pipe, hangs,
/// dies, or writes half a line cannot block the harness. The loop also looks at the process itself (`waitpid` after each
/// poll that brought no stdout, and once a slice), so a child that exits while something it started still holds its
/// stdout, even writing to it, is seen within a slice. Not thread-safe: `SubprocessAdapter` uses it from its serial queue only.
final class SubprocessChild {
  /// Why the child stopped answering.
  enum Fault: Error {
    /// It exited (or its stdout ended); the description says how, and `partial` holds a line it left unfinished.
    case exited(String, partial: [UInt8])
    /// No complete line before the deadline.
    case timedOut
    /// The request was cancelled.
    case cancelled
    /// A line longer than `lineLimit` bytes.
    case lineTooLong
    /// It closed its stdin while it runs on, so a request cannot reach it.
    case closedStdin
  }

  /// How much of stderr is kept.
  static let stderrLimit = 8192
  /// The longest line accepted.
  static let lineLimit = 16 << 20

  /// The child's pid, which is also its process group's id.
  let pid: pid_t
  /// How it ended, once collected.
  var termination: SubprocessTermination?
  let stdinFD: Int32
  let stdoutFD: Int32
  let stderrFD: Int32
  /// When the loop last looked at the process (`isRunning`), in uptime nanoseconds.
  var lastLook: UInt64 = 0
  /// A descriptor that wakes a waiting read (the adapter's wake pipe), or -1.
  let wakeFD: Int32
  var stdinOpen = true
  /// Whether a write found stdin closed by the child (EPIPE) while it may still run, so no request can reach it.
  var stdinRefused = false
  /// Bytes still to be written to stdin.
  var pending: ArraySlice<UInt8> = []
  /// Bytes read from stdout; the unread part starts at `stdoutStart`.
  var stdout: [UInt8] = []
  var stdoutStart = 0
  /// Where the search for the next newline resumes.
  var searched = 0
  var stdoutEOF = false
  var stderrEOF = false
  var stderrTail: [UInt8] = []
  /// One buffer for every read, allocated once.
  var buffer = [UInt8](repeating: 0, count: 65536)
  /// The descriptors of one `poll`, reused.
  var pollSet: [pollfd] = []
  /// Bytes written to stderr so far; a mark for `stderr(since:)`.
  private(set) var stderrCount = 0

  /// Writing to a pipe whose reader died raises SIGPIPE, which would kill the harness; ignore it once, process-wide, so
  /// the write fails with EPIPE instead (there is no per-pipe way on Linux). The child starts with it at its default.
  private static let ignoreBrokenPipes: Void = {
    _ = signal(SIGPIPE, SIG_IGN)
  }()

  /// Starts the command through `/bin/sh`, which `exec`s it, so signals reach the implementation itself; it leads its
  /// own process group, with no signal blocked or ignored (`SubprocessSpawn`). `wake`, when readable, ends a read's
  /// wait early so that the caller can look at its cancellation.
  init(command: String, wake: Int32 = -1) throws {
    Self.ignoreBrokenPipes
    wakeFD = wake
    var descriptors: [Int32] = []
    do {
      let input = try SubprocessSpawn.makePipe()
      descriptors += [input.read, input.write]
      let output = try SubprocessSpawn.makePipe()
      descriptors += [output.read, output.write]
      let errors = try SubprocessSpawn.makePipe()
      descriptors += [errors.read, errors.write]
      pid = try SubprocessSpawn.shell(command, stdin: input.read, stdout: output.write, stderr: errors.write)
      for descriptor in [input.read, output.write, errors.write] { close(descriptor) }
      stdinFD = input.write
      stdoutFD = output.read
      stderrFD = errors.read
    } catch {
      for descriptor in descriptors { close(descriptor) }
      throw error
    }
    for descriptor in [stdinFD, stdoutFD, stderrFD] {
      _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
    }
  }

  /// Kills the child's group if it is still there, and closes the pipes.
  deinit {
    if termination == nil {
      SubprocessSpawn.killGroup(pid)
      collectLater()
    }
    closeStdin()
    close(stdoutFD)
    close(stderrFD)
  }

  /// Writes `bytes` to stdin. A child that closed stdin is noticed by the next `readLine`, which sees its exit.
  func write(_ bytes: [UInt8], deadline: DispatchTime, isCancelled: () -> Bool) throws(Fault) {
    pending = bytes[...]
    writeSome()  // a pipe with room takes it at once, without a poll
    try pump(deadline: deadline, isCancelled: isCancelled) { pending.isEmpty || !stdinOpen }
  }

  /// The next line from stdout, without its `\n`; `.exited` as soon as the process has exited and no complete line is
  /// left, even when something it started still holds its stdout.
  func readLine(deadline: DispatchTime, isCancelled: () -> Bool) throws(Fault) -> [UInt8] {
    while true {
      if let line = takeLine() { return line }
      if stdout.count - stdoutStart > Self.lineLimit { throw .lineTooLong }
      if stdinRefused && !stdoutEOF && termination == nil {
        // A child that closed stdin may be exiting: that says more, so look a moment before blaming stdin.
        try? pump(deadline: .now() + 0.2, isCancelled: isCancelled) { stdoutEOF || termination != nil }
        if let line = takeLine() { return line }
        if !stdoutEOF && termination == nil { throw .closedStdin }
      }
      if stdoutEOF || termination != nil {
        drainStderr()
        if let line = takeLine() { return line }
        throw .exited(exitDescription(), partial: Array(stdout[stdoutStart...]))
      }
      let seen = stdout.count
      try pump(deadline: deadline, isCancelled: isCancelled) {
        stdout.count != seen || stdoutEOF || termination != nil || stdinRefused
      }
    }
  }

  /// A complete line from the buffer, if there is one.
  private func takeLine() -> [UInt8]? {
    let from = max(searched, stdoutStart)
    guard let newline = stdout[from...].firstIndex(of: UInt8(ascii: "\n")) else {
      searched = stdout.count
      return nil
    }
    let line = Array(stdout[stdoutStart..<newline])
    stdoutStart = newline + 1
    searched = stdoutStart
    if stdoutStart == stdout.count {
      stdout.removeAll(keepingCapacity: true)
      stdoutStart = 0
      searched = 0
    } else if stdoutStart > 65536 {
      stdout.removeSubrange(..<stdoutStart)
      searched -= stdoutStart
      stdoutStart = 0
    }
    return line
  }

  /// Whether a complete line is buffered, or the pipe holds one right now (read without waiting).
  func hasLine() -> Bool {
    drainStderr()
    return stdout[max(searched, stdoutStart)...].contains(UInt8(ascii: "\n"))
  }

  /// Reads whatever stderr (and stdout) hold right now, without waiting.
  func drainStderr() {
    var rounds = 0
    while rounds < 64 && pollOnce(milliseconds: 0) { rounds += 1 }
  }

  /// What the child wrote to stderr since `mark` (a past `stderrCount`), at most the last 8 KB.
  func stderr(since mark: Int) -> String {
    guard stderrCount > mark else { return "" }
    let count = min(stderrCount - mark, stderrTail.count)
    let text = String(decoding: stderrTail.suffix(count), as: UTF8.self)
    return stderrCount - mark > count ? "…" + text : text
  }

  /// Kills the child's process group at once (SIGKILL), so that what a wrapper started dies with it, and collects what
  /// it had written to stderr.
  func kill() {
    // Even when the child itself has exited: what it started may still be running in its group.
    SubprocessSpawn.killGroup(pid)
    finish(within: 0.5)
    if termination == nil { collectLater() }
  }

  /// Asks the child to stop (`{"cmd":"stop"}`, then end of stdin), and kills its group once it has exited or `grace`
  /// has passed.
  func stop(grace: Double) {
    askToStop()
    let deadline = DispatchTime.now() + grace
    while isRunning() && DispatchTime.now() < deadline { usleep(2000) }
    kill()
  }

  /// Sends `{"cmd":"stop"}` if the child still reads it, then ends its stdin: it exits once it has answered.
  func askToStop() {
    if isRunning() && stdinOpen {
      pending = SubprocessProtocol.stop()[...]
      pollOnce(milliseconds: 0)
    }
    closeStdin()
  }

  /// Whether the child has not exited yet; collects it (`waitpid`) once it has.
  @discardableResult
  func isRunning() -> Bool {
    if termination == nil {
      termination = SubprocessSpawn.reap(pid, blocking: false)
    }
    return termination == nil
  }

  /// Collects the child on a thread of its own, for a child that outlived SIGKILL (stuck in the kernel), so that it
  /// does not stay a zombie; its status is not kept.
  private func collectLater() {
    let pid = pid
    termination = .unknown
    Thread.detachNewThread { _ = SubprocessSpawn.reap(pid, blocking: true) }
  }

  func closeStdin() {
    if stdinOpen { close(stdinFD) }
    stdinOpen = false
    pending = []
  }

  /// Waits up to `seconds` for stdout and stderr to end and the process to be reaped, keeping what it writes.
  private func finish(within seconds: Double) {
    pending = []
    drainStderr()  // what is already in the pipes, even if this thread wakes up after the deadline on a busy machine
    try? pump(deadline: .now() + seconds, isCancelled: { false }, until: { stdoutEOF && stderrEOF })
    let deadline = DispatchTime.now() + seconds
    while isRunning() && DispatchTime.now() < deadline { usleep(2000) }
  }

  /// How the child ended: `exited with status 1`, `was killed by signal 9`. When only its stdout ended, it waits up to
  /// a second for the process; when the process ended, it does not wait for what it left running.
  private func exitDescription() -> String {
    if termination == nil { finish(within: 1) }
    switch termination {
    case nil: return "closed its stdout"
    case .exited(let status)?: return "exited with status \(status)"
    case .signaled(let signal)?: return "was killed by signal \(signal)"
    case .unknown?: return "exited"
    }
  }

  /// Counts bytes written to stderr and keeps the last `stderrLimit` of them.
  func keepStderr(_ bytes: UnsafeRawBufferPointer) {
    stderrCount += bytes.count
    stderrTail.append(contentsOf: bytes)
    if stderrTail.count > Self.stderrLimit { stderrTail.removeFirst(stderrTail.count - Self.stderrLimit) }
  }
}
