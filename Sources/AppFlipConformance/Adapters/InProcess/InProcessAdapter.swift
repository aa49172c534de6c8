import AppFlip
import Foundation

/// Runs an `AppFlipHandler` in this process, scripting its authorization service per step.
///
/// Built from a handler, every vector shares that one handler and configuration; built from a factory, it makes a fresh
/// handler for each run of a vector (its steps share it), so vectors with their own configuration run too and
/// concurrently running vectors never see each other's links.
public struct InProcessAdapter<Handler: AppFlipHandler>: ConformanceAdapter {
  /// A short name of the handler, for reports.
  public var name: String
  private let handlers: HandlerSource<Handler>

  /// Wraps one handler built for the run's configuration.
  public init(_ handler: Handler, name: String = String(describing: Handler.self)) {
    self.name = name
    handlers = HandlerSource(fixed: handler)
  }

  /// Builds a fresh handler for each run of a vector, with the configuration the vector calls for.
  public init(
    name: String = String(describing: Handler.self), make: @escaping @Sendable (PartnerConfiguration) -> Handler
  ) {
    self.name = name
    handlers = HandlerSource(make: make)
  }

  /// In-process handlers run interleaved vectors: several links in flight on one handler.
  public var acceptsInterleaving: Bool { true }

  /// Whether this adapter was built from a factory.
  public var acceptsConfiguration: Bool { !handlers.isFixed }

  /// Delivers the link to the handler with a fresh scripted authorizer and records its code requests.
  public func handle(_ request: HandlerRequest) async throws -> Observation {
    let authorizer = Authorizer(outcome: request.outcome, barrier: request.barrier)
    let handler = handlers.checkOut(for: request)
    let opened: OpenedURL?
    do {
      opened = try await handler.handle(request.link, authorizer: authorizer)
    } catch {
      handlers.checkIn(request, lastStep: true)
      throw error
    }
    handlers.checkIn(request)
    return Observation(opened: opened, authorizationRequests: authorizer.requests)
  }
}

/// One fixed handler, or a handler made for each run of a vector and dropped after its last step.
///
/// A fixed handler is kept as a factory that ignores the configuration, and `isFixed` says which it is: the adapter is
/// called through `any ConformanceAdapter`, unspecialized, where looking at an optional `Handler` looks up generic
/// metadata on every step.
private final class HandlerSource<Handler: AppFlipHandler>: Sendable {
  let isFixed: Bool
  private let make: @Sendable (PartnerConfiguration) -> Handler
  private let runs = Locked<[Int: (handler: Handler, stepsLeft: Int)]>([:])

  init(fixed: Handler) {
    isFixed = true
    make = { _ in fixed }
  }

  init(make: @escaping @Sendable (PartnerConfiguration) -> Handler) {
    isFixed = false
    self.make = make
  }

  /// The handler for a request's run, made on its first step.
  func checkOut(for request: HandlerRequest) -> Handler {
    // A run of one step needs no entry: its handler is made for it and dropped after it.
    if isFixed || request.stepCount == 1 { return make(request.configuration) }
    return runs.withLock { runs in
      if let entry = runs[request.run] { return entry.handler }
      let handler = make(request.configuration)
      runs[request.run] = (handler, request.stepCount)
      return handler
    }
  }

  /// Marks a step done, dropping the run's handler after its last one, or when `lastStep` says no more will follow.
  func checkIn(_ request: HandlerRequest, lastStep: Bool = false) {
    guard !isFixed, request.stepCount > 1 else { return }
    runs.withLock { runs in
      guard let entry = runs[request.run] else { return }
      if lastStep || entry.stepsLeft <= 1 {
        runs[request.run] = nil
      } else {
        runs[request.run] = (entry.handler, entry.stepsLeft - 1)
      }
    }
  }
}
