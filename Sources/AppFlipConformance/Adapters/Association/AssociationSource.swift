import Foundation

/// Where a run's association file comes from, read once: fetched from
/// `https://HOST/.well-known/apple-app-site-association` with the endpoint profile's HTTP client (no redirect
/// followed, bounded by the timeout and 1 MiB, `--cacert` for a staging CA), once as the suite and once with Apple's
/// CDN's user agent; or read from a local file (`--association-file`).
package final class AssociationSource: Sendable {
  /// A local file, or `nil` to fetch from the universal link's host.
  package let file: String?
  /// Seconds a fetch may take (`--timeout`).
  package let timeout: Double
  /// A PEM file of the CA a staging host's certificate is checked against (`--cacert`).
  package let caCertificate: String?
  /// The read under way, and its result once there is one: the file as read, or, once a step stopped waiting for it
  /// (its timeout, or the run's end), an answer that did not come in time, which every later step gets at once.
  private let reading = Locked<(task: Task<AssociationSnapshot, Never>?, result: AssociationSnapshot?)>((nil, nil))

  /// Creates a source: `file` read, or the universal link's host fetched.
  package init(file: String?, timeout: Double, caCertificate: String?) {
    self.file = file
    self.timeout = timeout
    self.caCertificate = caCertificate
  }

  /// The file as the run read it, once a step has read it (this never starts a read).
  package var current: AssociationSnapshot? { reading.withLock { $0.result } }

  /// The association file's URL for a universal link: https, its host and port, the well-known path (Apple:
  /// "Supporting associated domains"); `nil` for a link without `https://` and a host.
  package static func url(forUniversalLink link: String) -> String? {
    guard link.lowercased().hasPrefix("https://"), let parts = AssociationURL(link), !parts.authority.isEmpty else {
      return nil
    }
    return "https://\(parts.authority)/.well-known/apple-app-site-association"
  }

  /// The file for the run's `universalLink` (the local file, whatever the host), read at most once.
  package func snapshot(for universalLink: String) async -> AssociationSnapshot {
    let (task, result) = reading.withLock { state -> (Task<AssociationSnapshot, Never>?, AssociationSnapshot?) in
      if let result = state.result { return (nil, result) }
      if state.task == nil {
        state.task = Task { [file, timeout, caCertificate, reading] in
          var snapshot: AssociationSnapshot
          if let file {
            snapshot = Self.read(file)
          } else if let url = Self.url(forUniversalLink: universalLink) {
            snapshot = await Self.fetch(url, timeout: timeout, caCertificate: caCertificate)
          } else {
            snapshot = AssociationSnapshot(source: universalLink, fetched: true)
            snapshot.failure = "the universal link \(Quoted.string(universalLink)) has no https host to ask"
          }
          return reading.withLock { state in
            if state.result == nil { state.result = snapshot }
            return state.result ?? snapshot
          }
        }
      }
      return (state.task, nil)
    }
    guard let task else { return result ?? AssociationSnapshot(source: universalLink, fetched: file == nil) }
    return await withTaskCancellationHandler {
      await task.value
    } onCancel: { [file, timeout, reading] in
      // The step stopped waiting: no later step waits again, even while the read is still being ended.
      var late = AssociationSnapshot(
        source: file ?? Self.url(forUniversalLink: universalLink) ?? universalLink, fetched: file == nil)
      late.failure = Self.notInTime(late.source, timeout: timeout)
      reading.withLock { if $0.result == nil { $0.result = late } }
      task.cancel()
    }
  }

  /// Fetches the file twice at once, as the suite and as Apple's CDN, and reads the first answer.
  static func fetch(_ url: String, timeout: Double, caCertificate: String?) async -> AssociationSnapshot {
    var snapshot = AssociationSnapshot(source: url, fetched: true)
    guard let target = URL(string: url) else {
      snapshot.failure = "\(Quoted.string(url)) is not a URL the suite can request"
      return snapshot
    }
    // Its own deadline comes well before the step's, so a host that never answers is this fetch's failure.
    let deadline = max(0.1, timeout - max(0.5, timeout / 10))
    async let plain = answer(target, userAgent: nil, timeout: deadline, caCertificate: caCertificate)
    async let apple = answer(
      target, userAgent: AssociationSnapshot.AppleAnswer.userAgent, timeout: deadline, caCertificate: caCertificate)
    let (first, second) = await (plain, apple)
    switch first {
    case .failure(let error):
      if case .tooLarge(_, let part, _) = error, part.hasPrefix("body") {
        snapshot.exceedsReadLimit = true
        snapshot.size = EndpointHTTPClient.bodyLimit
      } else {
        snapshot.failure = describe(error, timeout: timeout)
      }
    case .success(let answer):
      snapshot.status = answer.status
      snapshot.location = answer.location
      snapshot.contentType = answer.head?.value("content-type")
      snapshot.size = answer.body.count
      if answer.status == 200 { parse(Data(answer.body), into: &snapshot) }
    }
    switch second {
    case .failure(let error):
      if case .tooLarge = error, snapshot.exceedsReadLimit {
        snapshot.asApple = .init(status: nil, sameBody: true, failure: nil)
      } else {
        snapshot.asApple = .init(status: nil, sameBody: false, failure: describe(error, timeout: timeout))
      }
    case .success(let theirs):
      // No first answer, no same body.
      snapshot.asApple = .init(status: theirs.status, sameBody: (try? first.get())?.body == theirs.body, failure: nil)
    }
    return snapshot
  }

  /// One `GET` of the file, with Apple's CDN's user agent or the suite's own.
  static func answer(_ url: URL, userAgent: String?, timeout: Double, caCertificate: String?) async
    -> Result<EndpointAnswer, EndpointError>
  {
    do {
      let headers = userAgent.map { [("User-Agent", $0)] } ?? []
      return .success(
        try await EndpointTransport.send(url, headers: headers, timeout: timeout, caCertificate: caCertificate))
    } catch let error as EndpointError {
      return .failure(error)
    } catch {
      // Cancelled with the step that waited for it: as good as no answer in time.
      return .failure(.timedOut(url: url.absoluteString, seconds: timeout))
    }
  }

  /// A local association file, as the run reads its inputs (`InputFile`): a regular file, at most what a fetch reads.
  static let kind = InputFile.Kind(name: "an apple-app-site-association file", limit: EndpointHTTPClient.bodyLimit)

  /// Reads a local file; one over 1 MiB is not read, and counts as over Apple's limit.
  static func read(_ path: String) -> AssociationSnapshot {
    var snapshot = AssociationSnapshot(source: path, fetched: false)
    do {
      let data = try InputFile.read(path, as: kind)
      snapshot.size = data.count
      parse(data, into: &snapshot)
    } catch {
      let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
      if size > kind.limit {
        snapshot.size = kind.limit
        snapshot.exceedsReadLimit = true
      } else {
        snapshot.failure =
          "\(Quoted.string(path)) cannot be read: \(error.reason); check the path given to --association-file"
      }
    }
    return snapshot
  }

  /// Parses the bytes when Apple would use them (at most 128 KB).
  static func parse(_ data: Data, into snapshot: inout AssociationSnapshot) {
    guard !snapshot.exceedsReadLimit, data.count <= AssociationSnapshot.sizeLimit else { return }
    do {
      snapshot.file = try AssociationFile(json: data)
    } catch {
      snapshot.unusable = error.message
    }
  }

  /// The sentence for a file that did not come within the run's `timeout`.
  static func notInTime(_ source: String, timeout: Double) -> String {
    "\(Quoted.string(source)) did not answer within \(timeout) seconds; check the host, or raise --timeout"
  }

  /// One sentence for a fetch that got no answer to judge; `timeout` is the run's.
  static func describe(_ error: EndpointError, timeout: Double) -> String {
    switch error {
    case .unreachable(let url, let reason):
      "\(Quoted.string(url)) cannot be fetched: \(reason); check that the universal link's host serves https there"
    case .timedOut(let url, _):
      notInTime(url, timeout: timeout)
    case .notHTTP(let url, let start):
      "\(Quoted.string(url)) did not answer HTTP/1.x (it sent \(Quoted.string(start)))"
    default:
      error.description
    }
  }
}
