import Foundation

/// Sends one `GET` to an authorization endpoint (or one `POST` to a token endpoint) without following redirects:
/// `http:` over the suite's own bounded socket client, `https:` through `curl` in a child process (`EndpointCurl`),
/// never URLSession, whose swift-corelibs-foundation ends the process when a server closes in the middle of its headers.
enum EndpointTransport {
  /// Sends the request with the given headers (a `GET`, or with `body` a form `POST`, a token request, RFC 6749
  /// §4.1.3) on a thread of its own and returns the answer as received; throws `EndpointError` when there is none.
  /// `caCertificate` is a PEM file of the CA an `https:` server's certificate is checked against. Cancelling the task
  /// ends the request (and curl) within 50 ms.
  static func send(
    _ url: URL, headers: [(String, String)], body: [UInt8]? = nil, timeout: Double, caCertificate: String? = nil
  ) async throws -> EndpointAnswer {
    let cancelled = Locked(false)
    let isCancelled = { @Sendable in cancelled.withLock { $0 } }
    let lines = headers.map { EndpointHTTPClient.HeaderLine(name: $0.0, value: $0.1) }
    let string = url.absoluteString
    // A little before the step's own timeout, so the message says which request and what was missing.
    let seconds = max(0, timeout - min(0.25, timeout / 10))
    let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(seconds * 1e9)
    let exchange = { @Sendable () throws -> EndpointAnswer in
      do {
        if string.lowercased().hasPrefix("http://") {
          return try EndpointHTTPClient.exchange(
            url, headers: lines, body: body, deadline: deadline, cancelled: isCancelled)
        }
        return try EndpointCurl.exchange(
          url, headers: lines, body: body, seconds: seconds, deadline: deadline, timeout: timeout,
          caCertificate: caCertificate, cancelled: isCancelled)
      } catch let failure as EndpointSocket.Failure {
        switch failure {
        case .timedOut: throw EndpointError.timedOut(url: string, seconds: timeout)
        case .cancelled: throw CancellationError()
        case .system(let reason): throw EndpointError.connectionLost(url: string, reason: reason)
        }
      }
    }
    return try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<EndpointAnswer, any Error>) in
        let thread = Thread { continuation.resume(with: Result { try exchange() }) }
        thread.stackSize = 1 << 20
        thread.start()
      }
    } onCancel: {
      cancelled.withLock { $0 = true }
    }
  }
}
