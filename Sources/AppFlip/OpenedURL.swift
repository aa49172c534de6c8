/// A URL an App Flip handler opened, and whether it asked for universal links only (AF-RE-9).
public struct OpenedURL: Sendable, Hashable, Codable {
  /// The URL exactly as the handler built it.
  public var url: String
  /// Whether `UIApplication.OpenExternalURLOptionsKey.universalLinksOnly` was set; `nil` when the adapter cannot tell.
  public var universalLinksOnly: Bool?

  /// Creates a record of an opened URL.
  public init(url: String, universalLinksOnly: Bool?) {
    self.url = url
    self.universalLinksOnly = universalLinksOnly
  }
}
