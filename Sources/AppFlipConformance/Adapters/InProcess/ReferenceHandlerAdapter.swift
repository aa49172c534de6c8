import AppFlip
import AppFlipReference

/// The bundled reference handler as an `AppFlipHandler`: the default implementation under test, and the model of a partner's adapter.
public struct ReferenceHandlerAdapter: AppFlipHandler {
  /// The reference handler.
  package let handler: AppFlipReferenceHandler

  /// Creates the reference handler for a partner configuration.
  public init(configuration: PartnerConfiguration = .default) {
    handler = AppFlipReferenceHandler(configuration: configuration.appFlip)
  }

  /// Hands the link to the wrapped handler, asking the scripted authorizer for codes.
  public func handle(_ link: String, authorizer: Authorizer) async throws -> OpenedURL? {
    await handler.handle(link) { await authorizer.requestCode($0) }
  }
}
