import AppFlip

/// The protocol a partner implements around its App Flip handler to test it in-process.
///
/// Receive the incoming link, ask `authorizer` for a code where the app would ask its OAuth server,
/// and return the URL the app would open (with `universalLinksOnly`), or `nil` when it opens nothing.
public protocol AppFlipHandler: Sendable {
  /// Handles one incoming universal link.
  func handle(_ link: String, authorizer: Authorizer) async throws -> OpenedURL?
}
