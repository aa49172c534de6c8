import AppFlip

/// Decides AF-RE-9 (App Flip for iOS, step 6: `UIApplication.open(_:options:)` with
/// `UIApplication.OpenExternalURLOptionsKey.universalLinksOnly`) from the options the code really passed when they were
/// recorded, else from what the adapter reports.
enum UniversalLinksOnlyCheck {
  /// The AF-RE-9 finding for one opened reply, if any.
  static func findings(_ opened: OpenedURL) -> [Finding] {
    guard let options = opened.options else {
      guard opened.universalLinksOnly == false else { return [] }
      return [
        Finding(
          rule: "AF-RE-9", level: .must, field: "universalLinksOnly", expected: "true", actual: "false",
          message: "The reply was not opened with universal links only.")
      ]
    }
    if opened.optionsAskUniversalLinksOnly == true { return [] }
    let expected = "[\(Quoted.string(OpenedURL.universalLinksOnlyOption)): true]"
    let actual = options.isEmpty ? "no options" : shown(options)
    let others = options.keys.filter { $0 != OpenedURL.universalLinksOnlyOption }.sorted()
    let message: String
    if let value = options[OpenedURL.universalLinksOnlyOption] {
      message = "The universal-links-only option was passed as \(value); only true asks for universal links only."
    } else if others.isEmpty {
      message =
        "The reply was opened without options; pass UIApplication.OpenExternalURLOptionsKey.universalLinksOnly: true."
    } else {
      message =
        "UIKit ignores the option key\(others.count > 1 ? "s" : "") \(others.map { Quoted.string($0) }.joined(separator: ", ")); "
        + "the only universal-links-only key is UIApplication.OpenExternalURLOptionsKey.universalLinksOnly "
        + "(raw value \(Quoted.string(OpenedURL.universalLinksOnlyOption))), set to true."
    }
    return [
      Finding(rule: "AF-RE-9", level: .must, field: "options", expected: expected, actual: actual, message: message)
    ]
  }

  /// Options the code passed, as reports show them: `["UIApplicationOpenURLOptionUniversalLinksOnly": true]`.
  static func shown(_ options: [String: String]) -> String {
    "[" + options.keys.sorted().map { "\(Quoted.string($0)): \(options[$0]!)" }.joined(separator: ", ") + "]"
  }
}
