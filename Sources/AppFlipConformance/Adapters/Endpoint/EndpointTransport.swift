import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Sends one `GET` to an authorization endpoint without following redirects: `http:` over the suite's own bounded
/// socket client, `https:` over URLSession.
enum EndpointTransport {
  /// Sends the request with the given headers and returns the answer as received; throws `EndpointError` when there is none.
  static func get(_ url: URL, headers: [(String, String)], timeout: Double) async throws -> EndpointAnswer {
    if url.absoluteString.lowercased().hasPrefix("http://") {
      return try await EndpointHTTPClient.get(url, headers: headers, timeout: timeout)
    }
    return try await secure(url, headers: headers, timeout: timeout)
  }

  /// An `https:` request over URLSession, with its own timeout a little shorter than the step's and no cancellation
  /// passed to URLSession: cancelling a task while URLSession times it out deadlocks swift-corelibs-foundation.
  static func secure(_ url: URL, headers: [(String, String)], timeout: Double) async throws -> EndpointAnswer {
    let configuration = URLSessionConfiguration.ephemeral
    let limit = max(0.1, timeout * 0.9)
    configuration.timeoutIntervalForRequest = limit
    configuration.timeoutIntervalForResource = limit
    configuration.httpCookieStorage = nil
    configuration.httpShouldSetCookies = false
    configuration.urlCache = nil
    configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
    let limiter = BoundedReader()
    let session = URLSession(configuration: configuration, delegate: limiter, delegateQueue: nil)

    var request = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: limit)
    request.httpMethod = "GET"
    request.setValue("identity", forHTTPHeaderField: "Accept-Encoding")
    for (name, value) in headers {
      request.addValue(value, forHTTPHeaderField: name)
    }
    let outcome = await withCheckedContinuation { (continuation: CheckedContinuation<BoundedReader.Outcome, Never>) in
      limiter.start(session.dataTask(with: request), then: continuation)
    }
    session.finishTasksAndInvalidate()
    let text = url.absoluteString
    switch outcome {
    case .answered(let http, let data):
      if let encoding = http.value(forHTTPHeaderField: "Content-Encoding"), encoding.lowercased() != "identity" {
        throw EndpointError.compressedBody(url: text, status: http.statusCode, encoding: encoding)
      }
      return EndpointAnswer(status: http.statusCode, location: http.value(forHTTPHeaderField: "Location"), body: data)
    case .tooLarge:
      throw EndpointError.tooLarge(url: text, part: "body", limit: EndpointHTTPClient.bodyLimit)
    case .failed(let error):
      if error.domain == NSURLErrorDomain && error.code == NSURLErrorTimedOut {
        throw EndpointError.timedOut(url: text, seconds: timeout)
      }
      throw EndpointError.unreachable(url: text, reason: error.localizedDescription)
    }
  }
}

/// Refuses every redirect, and cancels a download whose body grows past `EndpointHTTPClient.bodyLimit`.
private final class BoundedReader: NSObject, URLSessionDataDelegate, @unchecked Sendable {
  enum Outcome: Sendable {
    case answered(HTTPURLResponse, Data)
    case tooLarge
    case failed(NSError)
  }

  private let lock = NSLock()
  private var data = Data()
  private var response: HTTPURLResponse?
  private var exceeded = false
  private var continuation: CheckedContinuation<Outcome, Never>?

  func start(_ task: URLSessionDataTask, then continuation: CheckedContinuation<Outcome, Never>) {
    lock.withLock { self.continuation = continuation }
    task.resume()
  }

  func urlSession(
    _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
    newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
  ) {
    completionHandler(nil)
  }

  func urlSession(
    _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
    completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
  ) {
    lock.withLock { self.response = response as? HTTPURLResponse }
    completionHandler(.allow)
  }

  func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
    let over = lock.withLock {
      self.data.append(
        data.prefix(EndpointHTTPClient.bodyLimit + 1 - min(self.data.count, EndpointHTTPClient.bodyLimit)))
      exceeded = exceeded || self.data.count > EndpointHTTPClient.bodyLimit
      return exceeded
    }
    if over { dataTask.cancel() }
  }

  func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
    let (continuation, outcome): (CheckedContinuation<Outcome, Never>?, Outcome) = lock.withLock {
      let outcome: Outcome
      if exceeded {
        outcome = .tooLarge
      } else if let error {
        outcome = .failed(error as NSError)
      } else if let response {
        outcome = .answered(response, data)
      } else {
        outcome = .failed(NSError(domain: NSURLErrorDomain, code: NSURLErrorBadServerResponse))
      }
      let continuation = self.continuation
      self.continuation = nil
      return (continuation, outcome)
    }
    continuation?.resume(returning: outcome)
  }
}
