import AppFlip

/// The open step: handing the finished URL to iOS.
public enum Opening {
  /// Correct: with `UIApplication.OpenExternalURLOptionsKey.universalLinksOnly` (AF-RE-9).
  @Sendable public static func universalLinksOnly(_ url: String) -> OpenedURL {
    OpenedURL(url: url, universalLinksOnly: true)
  }

  /// Bug: with the default options, so another app or Safari may receive the code.
  @Sendable public static func defaultOptions(_ url: String) -> OpenedURL {
    OpenedURL(url: url, universalLinksOnly: false)
  }
}
