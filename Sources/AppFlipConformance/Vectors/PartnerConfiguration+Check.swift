import AppFlip
import Foundation

/// Checks a partner configuration before any vector runs, so a bad one is reported as the configuration's fault and no
/// handler is blamed for it: each allowed redirect URI is one of Google's twelve App Flip URLs (AF-RU-1; App Flip for
/// iOS, "Modify your authorization endpoint"), unless `allowUnlistedRedirectUris` admits a URL Google adds later.
///
/// The checks, in order: the client id, universal link and each allowed URL are not empty; the universal link is an
/// absolute `https` URL with a host (App Flip for iOS, "Configure your app's universal link"); an allowed URL is not
/// given twice (compared byte for byte); and each allowed URL is one of Google's, or, when unlisted URLs are allowed,
/// an absolute `https` URL without query, fragment or whitespace that is not a near-miss of one of Google's (other
/// case, a trailing `/` or `.`), since a near-miss is a typo and would make every vector blame the handler.
extension PartnerConfiguration {
  /// The problems of the whole configuration, in field order; empty when it is sound.
  package var problems: [Problem] {
    let fields = Self.problems(
      clientID: clientID, universalLink: universalLink, allowedRedirectURIs: allowList.urls,
      allowsUnlistedRedirectURIs: allowsUnlistedRedirectURIs)
    // Each scope is an RFC 6749 §3.3 scope-token: printable ASCII but space, `"` and `\`.
    let scopes = self.scopes.enumerated().filter { _, scope in
      scope.isEmpty || !scope.utf8.allSatisfy { (0x21...0x7E).contains($0) && $0 != 0x22 && $0 != 0x5C }
    }
    return fields
      + scopes.map { index, scope in
        Problem(
          field: "scopes[\(index)]", value: scope,
          reason:
            "it is not an RFC 6749 scope token (printable ASCII without spaces, quotes or backslashes); give each scope Google's project sends, e.g. \"devices\""
        )
      }
  }

  /// The problems of the fields given (an override gives only some); empty when they are sound.
  package static func problems(
    clientID: String?, universalLink: String?, allowedRedirectURIs: [String]?, allowsUnlistedRedirectURIs: Bool
  ) -> [Problem] {
    var found: [Problem] = []
    if let clientID, clientID.trimmingCharacters(in: .whitespaces).isEmpty {
      found.append(
        Problem(field: "clientId", value: clientID, reason: "it is empty; give Google's client id for your project"))
    }
    if let universalLink, !Self.isAbsoluteHTTPS(universalLink) {
      found.append(
        Problem(
          field: "universalLink", value: universalLink,
          reason:
            "it is not an absolute https URL; give your app's universal link, e.g. \"https://example.com/appflip\""))
    }
    for (index, url) in (allowedRedirectURIs ?? []).enumerated() {
      let field = "allowedRedirectUris[\(index)]"
      if let first = allowedRedirectURIs?.prefix(index).firstIndex(where: { Bytes.equal($0, url) }) {
        found.append(
          Problem(
            field: field, value: url, reason: "it repeats allowedRedirectUris[\(first)]; list each URL once"))
      } else if let problem = problem(with: url, allowsUnlistedRedirectURIs: allowsUnlistedRedirectURIs) {
        found.append(Problem(field: field, value: url, reason: problem))
      }
    }
    return found
  }

  /// The allowed URLs that are not one of Google's twelve App Flip URLs (AF-RU-1), to report when
  /// `allowUnlistedRedirectUris` let them in.
  package var unlistedRedirectURIs: [String] { allowList.urls.filter { !RedirectAllowList.google.contains($0) } }

  /// Why one allowed URL is refused, or `nil`.
  private static func problem(with url: String, allowsUnlistedRedirectURIs: Bool) -> String? {
    let googleURLs = RedirectAllowList.google
    if url.isEmpty { return "it is empty; remove it or give one of Google's App Flip redirect URLs" }
    if googleURLs.contains(url) { return nil }
    let list = "one of Google's twelve App Flip redirect URLs (e.g. \"\(googleURLs.urls.first ?? "")\")"
    if let near = googleURLs.urls.first(where: { folded($0) == folded(url) }) {
      return "it is a near-miss of \"\(near)\"; write it exactly as Google lists it"
    }
    guard allowsUnlistedRedirectURIs else {
      return "it is not \(list); fix it, or set \"allowUnlistedRedirectUris\": true for a URL Google added later"
    }
    guard isAbsoluteHTTPS(url), !url.contains("?"), !url.contains("#") else {
      return "it is not an absolute https URL without query or fragment, as even an unlisted redirect URI must be"
    }
    return nil
  }

  /// A URL folded for the near-miss test: lowercased, trailing `/` and `.` removed.
  private static func folded(_ url: String) -> String {
    var folded = url.lowercased()
    while folded.hasSuffix("/") || folded.hasSuffix(".") { folded.removeLast() }
    return folded
  }

  /// Whether `string` is an absolute `https` URL with a host and no whitespace or control characters.
  static func isAbsoluteHTTPS(_ string: String) -> Bool {
    guard string.hasPrefix("https://"),
      !string.unicodeScalars.contains(where: { $0.properties.isWhitespace || $0.value < 0x20 || $0.value == 0x7F }),
      let components = URLComponents(string: string), let host = components.host, !host.isEmpty
    else { return false }
    return true
  }

  /// One problem: the field as written in the file (e.g. `allowedRedirectUris[1]`), the value, and why it is refused.
  package struct Problem: Sendable, Hashable, CustomStringConvertible {
    /// The JSON field, e.g. `allowedRedirectUris[1]`.
    package var field: String
    /// The refused value.
    package var value: String
    /// Why, and what to do.
    package var reason: String

    /// `field "allowedRedirectUris[0]": "https://evil.example/cb" is not allowed: it is not one of …`, as
    /// `VectorError.invalidValue` words it.
    package var description: String {
      "field \"\(field)\": \"\(value)\" is not allowed: \(reason)."
    }

    /// The problem as a decoding error at its field, so a configuration file or a vector's override names it.
    func decodingError(at codingPath: [any CodingKey]) -> DecodingError {
      var path = codingPath
      let name = field.prefix { $0 != "[" }
      path.append(AnyCodingKey(stringValue: String(name)))
      if let open = field.firstIndex(of: "["), let index = Int(field[field.index(after: open)...].dropLast()) {
        path.append(AnyCodingKey(intValue: index))
      }
      return .dataCorrupted(.init(codingPath: path, debugDescription: reason))
    }
  }
}
