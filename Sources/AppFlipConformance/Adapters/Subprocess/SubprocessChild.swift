import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// One running implementation: `/bin/sh -c "exec COMMAND"` and its three pipes, never waited on past a deadline. It
/// leads its own process group, and is killed with that group, so nothing it started outlives it.
///
/// Every pipe is non-blocking and served by one `poll` loop: while the harness writes a request or waits for a line it
/// also drains stderr (into an 8 KB tail) and stdout (into a line buffer), so a child that floods either pipe, hangs,
/// dies, or writes half a line cannot block the harness. Not thread-safe: `SubprocessSession` uses it from its serial
/// queue only.
final class SubprocessChild {
  /// Why the child stopped answering.
  enum Fault: Error {
    /// Its stdout ended; the description says how it exited, and `partial` holds a line it left unfinished.
    case exited(String, partial: [UInt8])
    /// No complete line before the deadline.
    case timedOut
    /// The request was cancelled.
    case cancelled
    /// A line longer than `lineLimit` bytes.
    case lineTooLong
  }

  /// How much of stderr is kept.
  static let stderrLimit = 8192
  /// The longest line accepted.
  static let lineLimit = 16 << 20

  /// The child's pid, which is also its process group's id.
  private let pid: pid_t
  /// How it ended, once collected.
  private var termination: SubprocessTermination?
  private let stdinFD: Int32
  private let stdoutFD: Int32
  private let stderrFD: Int32
  private var stdinOpen = true
  /// Bytes still to be written to stdin.
  private var pending: ArraySlice<UInt8> = []
  private var stdout: [UInt8] = []
  private var stdoutEOF = false
  private var stderrEOF = false
  private var stderrTail: [UInt8] = []
  /// Bytes written to stderr so far; a mark for `stderr(since:)`.
  private(set) var stderrCount = 0

  /// Writing to a pipe whose reader died raises SIGPIPE, which would kill the harness; ignore it once, process-wide, so
  /// the write fails with EPIPE instead (there is no per-pipe way on Linux). The child starts with it at its default.
  private static let ignoreBrokenPipes: Void = {
    _ = signal(SIGPIPE, SIG_IGN)
  }()

  /// Starts the command through `/bin/sh`, which `exec`s it, so signals reach the implementation itself; it leads its
  /// own process group, with no signal blocked or ignored (`SubprocessSpawn`).
  init(command: String) throws {
    Self.ignoreBrokenPipes
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
    try pump(deadline: deadline, isCancelled: isCancelled) { pending.isEmpty || !stdinOpen }
  }

  /// The next line from stdout, without its `\n`.
  func readLine(deadline: DispatchTime, isCancelled: () -> Bool) throws(Fault) -> [UInt8] {
    var searched = 0
    while true {
      if let newline = stdout[searched...].firstIndex(of: UInt8(ascii: "\n")) {
        let line = Array(stdout[..<newline])
        stdout.removeSubrange(...newline)
        return line
      }
      searched = stdout.count
      if stdout.count > Self.lineLimit { throw .lineTooLong }
      if stdoutEOF {
        throw .exited(exitDescription(), partial: stdout)
      }
      let seen = stdout.count
      try pump(deadline: deadline, isCancelled: isCancelled) { stdout.count != seen || stdoutEOF }
    }
  }

  /// Reads whatever stderr (and stdout) hold right now, without waiting.
  func drainStderr() {
    var rounds = 0
    while rounds < 64 && pollOnce(milliseconds: 0) { rounds += 1 }
  }

  /// What the child wrote to stderr since `mark` (a past `stderrCount`), at most the last 8 KB.
  func stderr(since mark: Int) -> String {
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
    if isRunning() && stdinOpen {
      pending = SubprocessProtocol.stop()[...]
      pollOnce(milliseconds: 0)
    }
    closeStdin()
    let deadline = DispatchTime.now() + grace
    while isRunning() && DispatchTime.now() < deadline { usleep(2000) }
    kill()
  }

  /// Whether the child has not exited yet; collects it (`waitpid`) once it has.
  private func isRunning() -> Bool {
    if termination == nil { termination = SubprocessSpawn.reap(pid, blocking: false) }
    return termination == nil
  }

  /// Collects the child on a thread of its own, for a child that outlived SIGKILL (stuck in the kernel), so that it
  /// does not stay a zombie; its status is not kept.
  private func collectLater() {
    let pid = pid
    termination = .unknown
    Thread.detachNewThread { _ = SubprocessSpawn.reap(pid, blocking: true) }
  }

  private func closeStdin() {
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

  /// How the child ended, after its stdout closed: `exited with status 1`, `was killed by signal 9`.
  private func exitDescription() -> String {
    finish(within: 1)
    switch termination {
    case nil: return "closed its stdout"
    case .exited(let status)?: return "exited with status \(status)"
    case .signaled(let signal)?: return "was killed by signal \(signal)"
    case .unknown?: return "exited"
    }
  }

  /// Polls until `done()` holds, the deadline passes (`timedOut`) or the request is cancelled (`cancelled`).
  private func pump(deadline: DispatchTime, isCancelled: () -> Bool, until done: () -> Bool) throws(Fault) {
    while !done() {
      if isCancelled() { throw .cancelled }
      let now = DispatchTime.now()
      guard now < deadline else { throw .timedOut }
      let remaining = (deadline.uptimeNanoseconds - now.uptimeNanoseconds) / 1_000_000
      // Short slices, so a cancellation is noticed within 50 ms.
      pollOnce(milliseconds: Int32(min(50, max(1, remaining))))
      if stdoutEOF && stderrEOF && (pending.isEmpty || !stdinOpen) && !done() {
        // Nothing more can happen: let the caller see the end.
        return
      }
    }
  }

  /// One `poll` over the open pipes, then one read or write on each that is ready; false when none was.
  @discardableResult
  private func pollOnce(milliseconds: Int32) -> Bool {
    var descriptors: [pollfd] = []
    let writing = !pending.isEmpty && stdinOpen
    if writing { descriptors.append(pollfd(fd: stdinFD, events: Int16(POLLOUT), revents: 0)) }
    if !stdoutEOF { descriptors.append(pollfd(fd: stdoutFD, events: Int16(POLLIN), revents: 0)) }
    if !stderrEOF { descriptors.append(pollfd(fd: stderrFD, events: Int16(POLLIN), revents: 0)) }
    guard !descriptors.isEmpty else { return false }
    guard poll(&descriptors, nfds_t(descriptors.count), milliseconds) > 0 else { return false }
    for descriptor in descriptors where descriptor.revents != 0 {
      switch descriptor.fd {
      case stdinFD: writeSome()
      case stdoutFD: stdoutEOF = !readSome(stdoutFD) { stdout += $0 }
      default: stderrEOF = !readSome(stderrFD) { keepStderr($0) }
      }
    }
    return true
  }

  /// Writes what the pipe takes now; a closed reader (EPIPE) drops the rest.
  private func writeSome() {
    let written = pending.withUnsafeBytes { writeBytes(stdinFD, $0.baseAddress, $0.count) }
    if written > 0 {
      pending.removeFirst(written)
    } else if written < 0 && errno != EAGAIN && errno != EINTR {
      closeStdin()
    }
  }

  /// Reads what the pipe holds now; false at end of file.
  private func readSome(_ descriptor: Int32, _ keep: ([UInt8]) -> Void) -> Bool {
    var buffer = [UInt8](repeating: 0, count: 65536)
    let count = buffer.withUnsafeMutableBytes { readBytes(descriptor, $0.baseAddress, $0.count) }
    if count > 0 {
      keep(Array(buffer[..<count]))
      return true
    }
    return count < 0 && (errno == EAGAIN || errno == EINTR)
  }

  private func keepStderr(_ bytes: [UInt8]) {
    stderrCount += bytes.count
    stderrTail += bytes
    if stderrTail.count > Self.stderrLimit { stderrTail.removeFirst(stderrTail.count - Self.stderrLimit) }
  }
}

// File-scope names for the system calls the methods above shadow.
private func writeBytes(_ descriptor: Int32, _ bytes: UnsafeRawPointer?, _ count: Int) -> Int {
  write(descriptor, bytes, count)
}
private func readBytes(_ descriptor: Int32, _ bytes: UnsafeMutableRawPointer?, _ count: Int) -> Int {
  read(descriptor, bytes, count)
}
