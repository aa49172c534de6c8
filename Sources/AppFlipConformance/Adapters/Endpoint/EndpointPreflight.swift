import AppFlip
import Foundation

/// Before the vectors, one request that must get a code (APPFLIP-RULES AF-EP-5): Google's `client_id`, the first App
/// Flip redirect URL, as the signed-in test user. Only when it gets one does a refusal answered by the server's own
/// page count; when it does not, the run stops with what the answer says went wrong.
enum EndpointPreflight {
  /// What the preflight found.
  enum Outcome: Sendable, Hashable {
    /// A code came back to the redirect URL: the session works.
    case proven
    /// No code came back; the diagnosis says why, read from the answer.
    case failed(String)
  }

  /// Sends the preflight request through the adapter's own shaping (`--param`, `--scope`, `--pkce`, headers).
  static func run(_ adapter: EndpointAdapter, configuration: PartnerConfiguration) async -> Outcome {
    let redirect = configuration.primaryRedirectURI
    let query = [
      ("response_type", "code"), ("client_id", configuration.clientID), ("redirect_uri", redirect),
      ("scope", "devices"), ("state", "appflip-preflight"),
    ].map { PercentEncoding.encode($0.0) + "=" + PercentEncoding.encode($0.1) }.joined(separator: "&")
    let cookieSent = adapter.headers.contains { $0.0.lowercased() == "cookie" }
    do {
      let url = try adapter.requestURL(for: "https://partner.example/appflip?" + query)
      let answer = try await EndpointTransport.get(
        url, headers: adapter.headers, timeout: adapter.timeout, caCertificate: adapter.caCertificate)
      return diagnose(answer, requestURL: url, redirectURI: redirect, cookieSent: cookieSent)
    } catch let error as CustomStringConvertible {
      return .failed("the request failed: \(error.description)")
    } catch {
      return .failed("the request failed: \(error)")
    }
  }

  /// Reads an answer: a code at the redirect URL proves the session; anything else is diagnosed.
  static func diagnose(_ answer: EndpointAnswer, requestURL: URL, redirectURI: String, cookieSent: Bool) -> Outcome {
    let noSession =
      cookieSent
      ? "a session cookie was sent, but the server still asks the test user to sign in (an expired session, or a"
        + " cookie for another host or path?); renew it, e.g. with --login-command"
      : "no session cookie was sent, and the server asks the test user to sign in; pass the signed-in test user's"
        + " session with --cookie-file FILE (a curl/Netscape jar), --login-command CMD or --cookie"
    let pkce = "the server requires PKCE; add --pkce"
    let scope = "the server refuses the scope \"devices\"; pass one it knows with --scope (e.g. --scope openid)"
    let consent =
      "the server shows a consent page: the test user has not consented to Google's client; consent once with that"
      + " session in a browser, or pass the server's own flag with --param (e.g. --param prompt=none)"
    let status = answer.status
    let text = answer.page.lowercased().replacingOccurrences(of: "_", with: " ")
    if (300...399).contains(status), let location = answer.location, !location.isEmpty {
      let target = EndpointOrigin(location: location, requestURL: requestURL)
      if target != EndpointOrigin(url: requestURL.absoluteString) {
        let absolute = target.absolute(location, requestURL: requestURL)
        let parameters = query(of: absolute)
        if absolute.hasPrefix(redirectURI + "?"), let code = parameters["code"], !code.isEmpty { return .proven }
        if let error = parameters["error"] {
          let description = parameters["error_description"].map { " (\($0))" } ?? ""
          let both = (error + description).lowercased().replacingOccurrences(of: "_", with: " ")
          if both.contains("code challenge") || both.contains("pkce") {
            return .failed(pkce + ": error=\(error)\(description)")
          }
          if error == "invalid_scope" || both.contains("scope") {
            return .failed(scope + ": error=\(error)\(description)")
          }
          if error == "consent_required" || error == "interaction_required" { return .failed(consent) }
          if error == "login_required" { return .failed(noSession) }
          return .failed(
            "the server refused the request with error=\(error)\(description) at \(Quoted.string(EndpointError.short(absolute)))"
          )
        }
        return .failed("the server redirected to \(Quoted.string(EndpointError.short(absolute))) without a code")
      }
      let path = location.lowercased()
      if ["login", "signin", "sign-in", "sign_in", "logon", "/auth/", "session"].contains(where: path.contains) {
        return .failed(noSession + " (HTTP \(status) to \(Quoted.string(EndpointError.short(location))))")
      }
      if ["consent", "approve", "grant", "authorize"].contains(where: path.contains) {
        return .failed(consent + " (HTTP \(status) to \(Quoted.string(EndpointError.short(location))))")
      }
      return .failed(
        "the server redirected within its own origin to \(Quoted.string(EndpointError.short(location))), not to the"
          + " redirect URL with a code")
    }
    let quoted = answer.bodyExcerpt.isEmpty ? "" : ": \(Quoted.string(answer.bodyExcerpt))"
    if answer.asksForPassword { return .failed(noSession + " (HTTP \(status) with a password field)") }
    if text.contains("code challenge") || text.contains("pkce") { return .failed(pkce + " (HTTP \(status)\(quoted))") }
    if status >= 400 && text.contains("scope") { return .failed(scope + " (HTTP \(status)\(quoted))") }
    if (200...299).contains(status),
      ["consent", "authorize", "allow", "approve", "grant access", "permission"].contains(where: text.contains)
    {
      return .failed(consent + " (HTTP \(status)\(quoted))")
    }
    return .failed("the server answered HTTP \(status) without a redirect\(quoted)")
  }

  /// The decoded parameters of a URL's query (first value of each name), for reading a preflight's redirect.
  static func query(of url: String) -> [String: String] {
    guard let mark = url.firstIndex(of: "?") else { return [:] }
    var query = url[url.index(after: mark)...]
    if let hash = query.firstIndex(of: "#") { query = query[..<hash] }
    var out: [String: String] = [:]
    for pair in query.split(separator: "&") {
      let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
      let decode = { (part: Substring) in
        PercentEncoding.decode(bytes: Array(part.utf8), plusAsSpace: true).map { String(decoding: $0, as: UTF8.self) }
          ?? String(part)
      }
      let name = decode(parts[0])
      if out[name] == nil { out[name] = parts.count > 1 ? decode(parts[1]) : "" }
    }
    return out
  }
}
