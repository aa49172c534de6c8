import AppFlip
import Foundation

/// The redirect step: whether a `redirect_uri` is one the handler answers to, exactly and in the ways partners loosen it.
public enum RedirectChecks {
  /// Correct: byte-identical to one allowed URL (AF-RU-1, AF-RU-2).
  @Sendable public static func exact(_ candidate: String, _ allowList: RedirectAllowList) -> Bool {
    allowList.urls.contains { $0.utf8.elementsEqual(candidate.utf8) }
  }

  /// Bug: accepts anything that starts with an allowed URL (`hasPrefix`).
  @Sendable public static func prefix(_ candidate: String, _ allowList: RedirectAllowList) -> Bool {
    allowList.urls.contains { candidate.hasPrefix($0) }
  }

  /// Bug: accepts anything that contains an allowed URL.
  @Sendable public static func containing(_ candidate: String, _ allowList: RedirectAllowList) -> Bool {
    allowList.urls.contains { candidate.contains($0) }
  }

  /// Bug: accepts any `https` URL whose host ends in `googleusercontent.com` and whose path is a Google app's.
  @Sendable public static func hostSuffix(_ candidate: String, _ allowList: RedirectAllowList) -> Bool {
    guard let url = URLComponents(string: candidate), url.scheme == "https" else { return false }
    return url.host?.hasSuffix("googleusercontent.com") == true && url.path.hasPrefix("/a/com.google.")
  }

  /// Bug: compares only scheme, host and path, so userinfo, a port, a query or a fragment slip through.
  @Sendable public static func schemeHostPath(_ candidate: String, _ allowList: RedirectAllowList) -> Bool {
    guard let url = URLComponents(string: candidate), let scheme = url.scheme, let host = url.host else { return false }
    return allowList.urls.contains("\(scheme)://\(host)\(url.path)")
  }

  /// Bug: compares case-insensitively.
  @Sendable public static func caseInsensitive(_ candidate: String, _ allowList: RedirectAllowList) -> Bool {
    allowList.urls.contains { $0.lowercased() == candidate.lowercased() }
  }

  /// Bug: compares `URL.standardized`, which resolves dot segments.
  @Sendable public static func standardized(_ candidate: String, _ allowList: RedirectAllowList) -> Bool {
    guard let url = URL(string: candidate) else { return false }
    return exact(url.standardized.absoluteString, allowList)
  }

  /// Bug: also accepts the `http` form of an allowed URL.
  @Sendable public static func anyHTTPScheme(_ candidate: String, _ allowList: RedirectAllowList) -> Bool {
    guard candidate.hasPrefix("http://") else { return exact(candidate, allowList) }
    return exact("https://" + candidate.dropFirst("http://".count), allowList)
  }

  /// Bug: compares after upper-casing the hex digits of every `%XX` escape (RFC 3986 §6.2.2.1's normalization), so a
  /// configured `%2B` also admits `%2b`.
  @Sendable public static func escapeCaseFolded(_ candidate: String, _ allowList: RedirectAllowList) -> Bool {
    func folded(_ url: String) -> [UInt8] {
      var bytes = Array(url.utf8)
      for index in bytes.indices.dropLast(2) where bytes[index] == UInt8(ascii: "%") {
        for digit in (index + 1)...(index + 2) where (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(bytes[digit]) {
          bytes[digit] -= 32
        }
      }
      return bytes
    }
    return allowList.urls.contains { folded($0) == folded(candidate) }
  }

  /// Bug: also accepts each allowed URL with `.dev` appended, meaning to admit the development build of Google's app.
  @Sendable public static func devVariants(_ candidate: String, _ allowList: RedirectAllowList) -> Bool {
    exact(candidate, allowList) || allowList.urls.contains { ($0 + ".dev").utf8.elementsEqual(candidate.utf8) }
  }
}
