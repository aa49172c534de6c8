import AppFlip
import Foundation

#if canImport(UIKit) && !os(watchOS)
  import UIKit
#endif

/// Stands in for `UIApplication.shared.open(_:options:completionHandler:)` in an adapter: records the URL and the
/// options dictionary exactly as the code passed them, so AF-RE-9 is judged from the real key (App Flip for iOS, step 6).
///
/// Pass `opener.open` where the app passes `UIApplication.shared.open`, run the app's App Flip code, and return
/// `opener.opened`. Universal-links-only counts only when the options carry
/// `UIApplication.OpenExternalURLOptionsKey.universalLinksOnly` (raw value
/// `"UIApplicationOpenURLOptionUniversalLinksOnly"`) set to true; a string key such as `"universalLinksOnly"`, which
/// UIKit ignores, fails AF-RE-9 with the key it saw.
public final class RecordingOpener: @unchecked Sendable {
  #if canImport(UIKit) && !os(watchOS)
    /// The raw value of the one key UIKit reads for universal-links-only opening.
    public static let universalLinksOnlyKey: String = UIApplication.OpenExternalURLOptionsKey.universalLinksOnly
      .rawValue
  #else
    /// The raw value of the one key UIKit reads for universal-links-only opening.
    public static let universalLinksOnlyKey: String = OpenedURL.universalLinksOnlyOption
  #endif

  private let lock = NSLock()
  private var all: [OpenedURL] = []

  /// Creates an opener that has opened nothing.
  public init() {}

  /// The last URL opened, with the options it was opened with; `nil` when nothing was opened.
  public var opened: OpenedURL? { lock.withLock { all.last } }

  /// Every URL opened, in order.
  public var openedURLs: [OpenedURL] { lock.withLock { all } }

  /// Records opening `url` with `options` keyed by raw strings, the shape of `UIApplication.open`'s dictionary
  /// everywhere (`[OpenExternalURLOptionsKey: Any]` bridges to it); the completion handler is called with `true`.
  public func open(
    _ url: URL, options: [String: Any], completionHandler completion: (@Sendable (Bool) -> Void)? = nil
  ) {
    record(url.absoluteString, options)
    completion?(true)
  }

  /// Records opening a URL the code built as a string (before it became a `URL`), with the options passed.
  public func open(_ url: String, options: [String: Any]) {
    record(url, options)
  }

  #if canImport(UIKit) && !os(watchOS)
    /// Records opening `url` with UIKit's typed options, exactly the signature of `UIApplication.open`.
    public func open(
      _ url: URL, options: [UIApplication.OpenExternalURLOptionsKey: Any] = [:],
      completionHandler completion: (@Sendable (Bool) -> Void)? = nil
    ) {
      record(url.absoluteString, Dictionary(uniqueKeysWithValues: options.map { ($0.key.rawValue, $0.value) }))
      completion?(true)
    }
  #endif

  private func record(_ url: String, _ options: [String: Any]) {
    let written = options.mapValues(Self.describe)
    var opened = OpenedURL(url: url, universalLinksOnly: nil, options: written)
    opened.universalLinksOnly = opened.optionsAskUniversalLinksOnly
    lock.withLock { all.append(opened) }
  }

  /// An option value as written: `true`/`false` for a Boolean, the digits of a number, a quoted string otherwise.
  static func describe(_ value: Any) -> String {
    switch value {
    case let flag as Bool: flag ? "true" : "false"
    case let number as Int: String(number)
    case let string as String: "\"\(string)\""
    default: String(describing: value)
    }
  }
}
