import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Sends one `GET` to an authorization endpoint without following redirects.
enum EndpointTransport {
  /// Sends the request with the given headers and returns the answer as received; throws `EndpointError` when there is none.
  static func get(_ url: URL, headers: [(String, String)], timeout: Double) async throws -> EndpointAnswer {
    let configuration = URLSessionConfiguration.ephemeral
    configuration.timeoutIntervalForRequest = timeout
    configuration.timeoutIntervalForResource = timeout
    configuration.httpCookieStorage = nil
    configuration.httpShouldSetCookies = false
    configuration.urlCache = nil
    configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
    let session = URLSession(configuration: configuration, delegate: RedirectBlocker(), delegateQueue: nil)
    defer { session.invalidateAndCancel() }

    var request = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: timeout)
    request.httpMethod = "GET"
    for (name, value) in headers {
      request.addValue(value, forHTTPHeaderField: name)
    }
    let data: Data
    let response: URLResponse
    do {
      (data, response) = try await session.data(for: request)
    } catch {
      let error = error as NSError
      if error.domain == NSURLErrorDomain && error.code == NSURLErrorTimedOut {
        throw EndpointError.timedOut(url: url.absoluteString, seconds: timeout)
      }
      if error.domain == NSURLErrorDomain && error.code == NSURLErrorCancelled {
        throw CancellationError()
      }
      throw EndpointError.unreachable(url: url.absoluteString, reason: error.localizedDescription)
    }
    guard let http = response as? HTTPURLResponse else {
      throw EndpointError.unreachable(url: url.absoluteString, reason: "the answer is not an HTTP response")
    }
    return EndpointAnswer(status: http.statusCode, location: http.value(forHTTPHeaderField: "Location"), body: data)
  }
}

/// Refuses every redirect, so the endpoint's own 3xx answer comes back with its `Location`.
private final class RedirectBlocker: NSObject, URLSessionTaskDelegate, Sendable {
  func urlSession(
    _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
    newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
  ) {
    completionHandler(nil)
  }
}
