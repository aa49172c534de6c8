import AppFlip
import Foundation

/// Runs an `AppFlipHandler` in this process, scripting its authorization service per step.
///
/// Built from a handler, it runs one fixed configuration; built from a factory, it makes (and keeps) one handler per
/// configuration, so vectors with their own configuration run too.
public struct InProcessAdapter<Handler: AppFlipHandler>: ConformanceAdapter {
  /// A short name of the handler, for reports.
  public var name: String
  private let handlers: HandlerSource<Handler>

  /// Wraps one handler built for the run's configuration.
  public init(_ handler: Handler, name: String = String(describing: Handler.self)) {
    self.name = name
    handlers = HandlerSource(fixed: handler)
  }

  /// Builds a handler for each configuration the vectors call for, reusing it for later requests with that configuration.
  public init(
    name: String = String(describing: Handler.self), make: @escaping @Sendable (PartnerConfiguration) -> Handler
  ) {
    self.name = name
    handlers = HandlerSource(make: make)
  }

  /// In-process handlers run interleaved vectors: several links in flight on one handler.
  public var acceptsInterleaving: Bool { true }

  /// Whether this adapter was built from a factory.
  public var acceptsConfiguration: Bool { handlers.fixed == nil }

  /// Delivers the link to the handler with a fresh scripted authorizer and records its code requests.
  public func handle(_ request: HandlerRequest) async throws -> Observation {
    let authorizer = Authorizer(outcome: request.outcome, barrier: request.barrier)
    let opened = try await handlers.handler(for: request.configuration).handle(request.link, authorizer: authorizer)
    return Observation(opened: opened, authorizationRequests: authorizer.requests)
  }
}

/// One fixed handler, or handlers made per configuration and kept.
private final class HandlerSource<Handler: AppFlipHandler>: @unchecked Sendable {
  let fixed: Handler?
  private let make: (@Sendable (PartnerConfiguration) -> Handler)?
  private let lock = NSLock()
  /// Handlers with the configuration they were made for, most recently used first; matched by bytes, since
  /// `PartnerConfiguration`'s own `==` would treat NFC and NFD client ids as one.
  private var made: [(configuration: PartnerConfiguration, handler: Handler)] = []

  init(fixed: Handler) {
    self.fixed = fixed
    make = nil
  }

  init(make: @escaping @Sendable (PartnerConfiguration) -> Handler) {
    fixed = nil
    self.make = make
  }

  func handler(for configuration: PartnerConfiguration) -> Handler {
    if let fixed { return fixed }
    lock.lock()
    defer { lock.unlock() }
    if let index = made.firstIndex(where: { sameBytes($0.configuration, configuration) }) {
      let entry = made[index]
      if index != 0 {
        made.remove(at: index)
        made.insert(entry, at: 0)
      }
      return entry.handler
    }
    let handler = make!(configuration)
    made.insert((configuration, handler), at: 0)
    return handler
  }
}

/// Whether two configurations have the same bytes in every field.
private func sameBytes(_ lhs: PartnerConfiguration, _ rhs: PartnerConfiguration) -> Bool {
  Bytes.equal(lhs.clientID, rhs.clientID) && Bytes.equal(lhs.universalLink, rhs.universalLink)
    && lhs.allowList.urls.count == rhs.allowList.urls.count
    && zip(lhs.allowList.urls, rhs.allowList.urls).allSatisfy { Bytes.equal($0, $1) }
}
