import AppFlip
import Foundation

extension SubprocessAdapter {
  /// Starts the implementation if it never answered `start`, to learn its capabilities (or for `prepare()`, which can
  /// cancel it).
  func startOnce(cancellation: SubprocessCancellation = SubprocessCancellation()) {
    if ready == nil { _ = try? start(cancellation: cancellation) }
  }

  /// Starts the implementation in the background if it never started, so that its start-up (an interpreter's, a JVM's)
  /// overlaps the run's loading; the first step or capability question waits for it as it would have started it.
  /// `shutdown()` cuts the start short (a signal during the loading, or a run that ends before its first vector).
  public func prepare() {
    let cancellation = SubprocessCancellation()
    preparation.withLock { $0 = cancellation }
    enqueue { self.startOnce(cancellation: cancellation) }
  }

  /// The running child, started and greeted if there is none, within the start's budget and by `limit`; after
  /// `startAttempts` failures in a row, the last one.
  func start(limit: DispatchTime = .distantFuture, cancellation: SubprocessCancellation) throws -> SubprocessChild {
    if let child { return child }
    if failedStarts >= Self.startAttempts, let startFailure {
      throw AdapterError(
        message: "failed to start \(failedStarts) times in a row, so it is not started again; the last time it "
          + startFailure.message,
        diagnostics: startFailure.diagnostics)
    }
    do throws(AdapterError) {
      let deadline = min(.now() + max(budget, Self.startBudget), limit)
      let child = try launch(deadline: deadline, cancellation: cancellation)
      failedStarts = 0
      startFailure = nil
      generation += 1
      answered = [:]
      self.child = child
      return child
    } catch {
      failedStarts += 1
      startFailure = error
      throw error
    }
  }

  /// Starts the command, sends `start` and reads `ready`.
  private func launch(deadline: DispatchTime, cancellation: SubprocessCancellation) throws(AdapterError)
    -> SubprocessChild
  {
    let child: SubprocessChild
    do {
      child = try SubprocessChild(command: command, wake: wakeRead)
    } catch {
      let shell = Quoted.string("exec " + command)
      throw AdapterError(message: "could not be started as /bin/sh -c \(shell): \(error.localizedDescription)")
    }
    let start = String(decoding: SubprocessProtocol.start().dropLast(), as: UTF8.self)
    func fail(_ problem: String) -> AdapterError {
      child.kill()
      return AdapterError(
        message: "did not start: \(problem); check that \(Quoted.string(command)) runs from this folder and answers "
          + "\(start) with a ready message (Docs/PROTOCOL.md)",
        diagnostics: child.stderr(since: 0))
    }
    let line: [UInt8]
    do {
      try child.write(SubprocessProtocol.start(), deadline: deadline, isCancelled: { cancellation.isCancelled })
      line = try readMessage(child, deadline: deadline, cancellation: { cancellation.isCancelled })
    } catch {
      throw fail(describe(error, answering: "start"))
    }
    let message: JSONSyntax.Value
    do {
      message = try SubprocessProtocol.Incoming.object(line)
    } catch .duplicate(let field) {
      throw fail("it answered start with the field \"\(field)\" twice in one object: \(Self.quoted(line))")
    } catch {
      throw fail("it answered start with a line that is not a JSON object: \(Self.quoted(line))")
    }
    let version = message["version"]?.integer
    guard let version, SubprocessProtocol.versions.contains(version) else {
      throw fail(
        "it answered with protocol version \(version.map(String.init) ?? "none") (field \"version\"); this "
          + "harness speaks versions "
          + SubprocessProtocol.versions.map(String.init).joined(separator: " and "))
    }
    do {
      ready = try SubprocessProtocol.ready(message, version: version)
    } catch {
      throw fail("its ready message breaks the protocol: \(error): " + Self.quoted(line))
    }
    return child
  }

  /// The next line that is not blank.
  func readMessage(
    _ child: SubprocessChild, deadline: DispatchTime, cancellation: () -> Bool
  ) throws(SubprocessChild.Fault) -> [UInt8] {
    while true {
      let line = try child.readLine(deadline: deadline, isCancelled: cancellation)
      if !Self.isBlank(line) { return line }
    }
  }

  /// Whether a line holds nothing but spaces, tabs and carriage returns.
  static func isBlank(_ line: [UInt8]) -> Bool {
    line.allSatisfy { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }
  }
}
