import Foundation

extension SubprocessChild {
  /// The longest one `poll` waits, so that a cancellation and the process's exit are noticed within this many
  /// milliseconds.
  static let sliceMilliseconds: Int32 = 50

  /// Polls until `done()` holds, the deadline passes (`timedOut`) or the request is cancelled (`cancelled`).
  func pump(deadline: DispatchTime, isCancelled: () -> Bool, until done: () -> Bool) throws(Fault) {
    while !done() {
      if isCancelled() { throw .cancelled }
      let now = DispatchTime.now()
      guard now < deadline else { throw .timedOut }
      let remaining = (deadline.uptimeNanoseconds - now.uptimeNanoseconds) / 1_000_000
      let slice = Int32(min(UInt64(Self.sliceMilliseconds), max(1, remaining)))
      let seen = stdout.count
      pollOnce(milliseconds: slice)
      // No line came, or a slice passed since the last look: look at the process, which may have exited while
      // something it started holds its stdout (and may keep writing to it).
      if stdout.count == seen || now.uptimeNanoseconds >= lastLook + UInt64(Self.sliceMilliseconds) * 1_000_000 {
        lastLook = now.uptimeNanoseconds
        isRunning()
      }
      if stdoutEOF && stderrEOF && (pending.isEmpty || !stdinOpen) && !done() {
        // Nothing more can happen: let the caller see the end.
        return
      }
    }
  }

  /// One `poll` over the open pipes and the wake pipe, then one read or write on each that is
  /// ready; false when none was.
  @discardableResult
  func pollOnce(milliseconds: Int32) -> Bool {
    pollSet.removeAll(keepingCapacity: true)
    // Watched even with nothing to write: an error on it says the child closed its stdin (`stdinRefused`).
    if stdinOpen { pollSet.append(pollfd(fd: stdinFD, events: pending.isEmpty ? 0 : Int16(POLLOUT), revents: 0)) }
    if !stdoutEOF { pollSet.append(pollfd(fd: stdoutFD, events: Int16(POLLIN), revents: 0)) }
    if !stderrEOF { pollSet.append(pollfd(fd: stderrFD, events: Int16(POLLIN), revents: 0)) }
    if wakeFD >= 0 && milliseconds > 0 { pollSet.append(pollfd(fd: wakeFD, events: Int16(POLLIN), revents: 0)) }
    guard !pollSet.isEmpty, poll(&pollSet, nfds_t(pollSet.count), milliseconds) > 0 else { return false }
    var any = false
    var stderrRead = false
    for index in pollSet.indices where pollSet[index].revents != 0 {
      any = true
      switch pollSet[index].fd {
      case stdinFD where pending.isEmpty:
        stdinRefused = true
        closeStdin()
      case stdinFD: writeSome()
      case stdoutFD:
        let count = stdout.count
        stdoutEOF = !readSome(stdoutFD, toStdout: true)
        // What the child wrote to stderr before these bytes is in the pipe by now, even if it came after `poll`
        // looked: read it too, so a line's diagnostics are complete without another `poll`.
        if stdout.count > count && !stderrEOF {
          stderrEOF = !readStderrNow()
          stderrRead = true
        }
      case stderrFD: if !stderrRead { stderrEOF = !readStderrNow() }
      default:  // the wake pipe: emptied, as the caller looks at its cancellation and queue itself
        while buffer.withUnsafeMutableBytes({ readBytes(wakeFD, $0.baseAddress, 64) }) > 0 {}
      }
    }
    return any
  }

  /// Writes what the pipe takes now; a closed reader (EPIPE) drops the rest.
  func writeSome() {
    guard !pending.isEmpty, stdinOpen else { return }
    let written = pending.withUnsafeBytes { writeBytes(stdinFD, $0.baseAddress, $0.count) }
    if written > 0 {
      pending.removeFirst(written)
    } else if written < 0 && errno != EAGAIN && errno != EINTR {
      stdinRefused = true
      closeStdin()
    }
  }

  /// Reads what stderr holds now, without waiting, up to 1 MB (a child that floods it cannot hold the loop); false at
  /// end of file.
  func readStderrNow() -> Bool {
    for _ in 0..<16 {
      let before = stderrCount
      guard readSome(stderrFD, toStdout: false) else { return false }
      if stderrCount - before < buffer.count { return true }
    }
    return true
  }

  /// Reads what the pipe holds now into stdout's buffer or stderr's tail; false at end of file.
  func readSome(_ descriptor: Int32, toStdout: Bool) -> Bool {
    var count = 0
    buffer.withUnsafeMutableBytes { raw in
      count = readBytes(descriptor, raw.baseAddress, raw.count)
      if count > 0 {
        let bytes = UnsafeRawBufferPointer(rebasing: raw[..<count])
        if toStdout { stdout.append(contentsOf: bytes) } else { keepStderr(bytes) }
      }
    }
    if count > 0 { return true }
    return count < 0 && (errno == EAGAIN || errno == EINTR)
  }
}

// File-scope names for the system calls the methods above shadow.
private func writeBytes(_ descriptor: Int32, _ bytes: UnsafeRawPointer?, _ count: Int) -> Int {
  write(descriptor, bytes, count)
}
private func readBytes(_ descriptor: Int32, _ bytes: UnsafeMutableRawPointer?, _ count: Int) -> Int {
  read(descriptor, bytes, count)
}
