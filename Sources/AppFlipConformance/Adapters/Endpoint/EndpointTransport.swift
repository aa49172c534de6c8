import Foundation

/// Sends one `GET` to an authorization endpoint (or one `POST` to a token endpoint) without following redirects:
/// `http:` over the suite's own bounded socket client, `https:` through `curl` in a child process (`EndpointCurl`),
/// never URLSession, whose swift-corelibs-foundation ends the process when a server closes in the middle of its headers.
enum EndpointTransport {
  /// What bounds one request: its URL as sent (for messages), the step's `timeout`, the reader's own `seconds`, a
  /// little less, the `deadline` they end at, and whether the task was cancelled.
  struct Bounds: Sendable {
    var url: String
    var timeout: Double
    var seconds: Double
    var deadline: UInt64
    var cancelled: @Sendable () -> Bool
  }

  /// Sends the request with the given headers (a `GET`, or with `body` a form `POST`, a token request, RFC 6749
  /// §4.1.3) on a thread of its own and returns the answer as received; throws `EndpointError` when there is none.
  /// `caCertificate` is a PEM file of the CA an `https:` server's certificate is checked against. Cancelling the task
  /// ends the request (and curl) within 50 ms.
  static func send(
    _ url: URL, headers: [(String, String)], body: [UInt8]? = nil, timeout: Double, caCertificate: String? = nil
  ) async throws -> EndpointAnswer {
    let cancelled = Locked(false)
    // A little before the step's own timeout, so the message says which request and what was missing.
    let seconds = max(0, timeout - min(0.25, timeout / 10))
    let bounds = Bounds(
      url: url.absoluteString, timeout: timeout, seconds: seconds,
      deadline: DispatchTime.now().uptimeNanoseconds + UInt64(seconds * 1e9), cancelled: { cancelled.withLock { $0 } })
    let exchange = { @Sendable () throws -> EndpointAnswer in
      if bounds.url.lowercased().hasPrefix("http://") {
        return try EndpointHTTPClient.exchange(bounds, headers: headers, body: body)
      }
      return try EndpointCurl.exchange(bounds, headers: headers, body: body, caCertificate: caCertificate)
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
