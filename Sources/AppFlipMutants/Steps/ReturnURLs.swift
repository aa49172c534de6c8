import AppFlip

/// The return-URL step: where the handler answers once `redirect_uri` is validated.
public enum ReturnURLs {
  /// Correct: the very `redirect_uri` that arrived (AF-RU-3).
  @Sendable public static func incoming(_ redirectURI: String) -> String {
    redirectURI
  }

  /// Bug: always Google Assistant's production URL, as a partner that configured one constant.
  @Sendable public static func hardCoded(_ redirectURI: String) -> String {
    "https://oauth-redirect.googleusercontent.com/a/com.google.OPA"
  }

  /// Bug: rebuilds the URL from the app's bundle id on the production host, so sandbox links are answered on production.
  @Sendable public static func productionHost(_ redirectURI: String) -> String {
    let bundleID = redirectURI.split(separator: "/").last.map(String.init) ?? ""
    return "https://oauth-redirect.googleusercontent.com/a/\(bundleID)"
  }

  /// Bug: the first configured URL, whichever allowed one arrived, as a partner that read its config's first entry.
  public static func first(of allowList: RedirectAllowList) -> @Sendable (String) -> String {
    { redirectURI in allowList.urls.first ?? redirectURI }
  }
}
