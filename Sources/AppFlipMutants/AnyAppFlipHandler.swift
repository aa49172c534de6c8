import AppFlip
import AppFlipConformance

/// A type-erased `AppFlipHandler`, so that a mutant's handler can be run by the generic `InProcessAdapter`.
public struct AnyAppFlipHandler: AppFlipHandler {
  /// The wrapped handler.
  public var base: any AppFlipHandler

  /// Wraps a handler.
  public init(_ base: any AppFlipHandler) {
    self.base = base
  }

  /// Hands the link to the wrapped handler.
  public func handle(_ link: String, authorizer: Authorizer) async throws -> OpenedURL? {
    try await base.handle(link, authorizer: authorizer)
  }
}
