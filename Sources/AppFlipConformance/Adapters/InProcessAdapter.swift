/// Runs an `AppFlipHandler` in this process, scripting its authorization service per step.
public struct InProcessAdapter<Handler: AppFlipHandler>: ConformanceAdapter {
  /// The handler under test.
  public var handler: Handler
  /// A short name of the handler, for reports.
  public var name: String

  /// Wraps a handler.
  public init(_ handler: Handler, name: String = String(describing: Handler.self)) {
    self.handler = handler
    self.name = name
  }

  /// Delivers the link to the handler with a fresh scripted authorizer and records its code requests.
  public func handle(_ request: HandlerRequest) async throws -> Observation {
    let authorizer = Authorizer(outcome: request.outcome)
    let opened = try await handler.handle(request.link, authorizer: authorizer)
    return Observation(opened: opened, authorizationRequests: authorizer.requests)
  }
}
