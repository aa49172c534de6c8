/// A URL an App Flip handler opened, and whether it asked for universal links only (AF-RE-9).
public struct OpenedURL: Sendable, Hashable, Codable {
  /// The raw value of `UIApplication.OpenExternalURLOptionsKey.universalLinksOnly`, the only key UIKit reads for
  /// universal-links-only opening (UIKit, `UIApplicationOpenURLOptionUniversalLinksOnly`; AF-RE-9).
  public static let universalLinksOnlyOption = "UIApplicationOpenURLOptionUniversalLinksOnly"

  /// The URL exactly as the handler built it.
  public var url: String
  /// Whether `UIApplication.OpenExternalURLOptionsKey.universalLinksOnly` was set; `nil` when the adapter cannot tell.
  public var universalLinksOnly: Bool?
  /// The options dictionary the code passed to `open`, each key as its raw string and each value as written (`true`,
  /// `1`, `"yes"`); `nil` when nobody recorded it. When present, AF-RE-9 is decided from it, not from `universalLinksOnly`.
  public var options: [String: String]?

  /// Creates a record of an opened URL.
  public init(url: String, universalLinksOnly: Bool?, options: [String: String]? = nil) {
    self.url = url
    self.universalLinksOnly = universalLinksOnly
    self.options = options
  }

  /// Whether `options` asks UIKit for universal links only: the real key set to true (`true` or `1`); `nil` without options.
  package var optionsAskUniversalLinksOnly: Bool? {
    guard let options else { return nil }
    return options[Self.universalLinksOnlyOption].map { $0 == "true" || $0 == "1" } ?? false
  }
}
