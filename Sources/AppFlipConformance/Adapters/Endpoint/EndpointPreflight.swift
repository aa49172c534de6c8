import AppFlip
import Foundation

/// Before the vectors, one request that must get a code (APPFLIP-RULES AF-EP-5): Google's `client_id`, an App Flip
/// redirect URL, as the signed-in test user. Only when it gets one does a refusal answered by the server's own page
/// count, and the same request (the canary) re-checks the session after each such refusal (AF-EP-7).
enum EndpointPreflight {
  /// What the preflight found.
  enum Outcome: Sendable, Hashable {
    /// A code came back to this redirect URL: the session works.
    case proven(redirectURI: String)
    /// The server itself refused the request (an error page, a broken or foreign redirect): when no App Flip URL gets
    /// a code this way, that is the server's AF-EP-1 failure, not a problem of the run; the diagnosis says what came.
    case refused(String)
    /// No code, for a reason of the run's own set-up (the session, consent, PKCE, the scope): nothing can be judged;
    /// the diagnosis says why and what to do.
    case failed(String)
    /// No answer at all (a timeout, a refused connection, a TLS failure): the error says why.
    case unanswered(String)
  }

  /// One preflight request for `redirectURI`, sent through the adapter's own shaping (`--param`, `--scope`,
  /// `--pkce`, headers); also the canary that re-checks the session after `vector`'s refusal.
  static func request(
    _ adapter: EndpointAdapter, redirectURI: String, configuration: PartnerConfiguration,
    after vector: String = "the preflight"
  ) async -> Outcome {
    let query = PercentEncoding.query([
      ("response_type", "code"), ("client_id", configuration.clientID), ("redirect_uri", redirectURI),
      ("scope", "devices"), ("state", "appflip-preflight"),
    ])
    do {
      let url = try adapter.requestURL(for: "https://partner.example/appflip?" + query)
      let answer = try await adapter.send(url, for: vector)
      return diagnose(
        answer, requestURL: url, redirectURI: redirectURI,
        cookieSent: adapter.headers.contains { $0.0.lowercased() == "cookie" }, parameters: adapter.parameters)
    } catch let error as CustomStringConvertible {
      return .unanswered("the request failed: \(error.description)")
    } catch {
      return .unanswered("the request failed: \(error)")
    }
  }

  /// Reads an answer: a code at the redirect URL proves the session; anything else is diagnosed, naming the fix.
  /// `parameters` are the `--param` values the request carried.
  static func diagnose(
    _ answer: EndpointAnswer, requestURL: URL, redirectURI: String, cookieSent: Bool,
    parameters: [(String, String)] = []
  ) -> Outcome {
    let hints = Hints(cookieSent: cookieSent, parameters: parameters)
    let status = answer.status
    if let fault = answer.headerFault {
      return .refused(
        "the server answered HTTP \(status), and \(fault), which no browser follows (AF-EP-6); send one Location,"
          + " with every byte of the URL percent-encoded")
    }
    if (300...399).contains(status), let location = answer.location, !location.isEmpty {
      let (absolute, offSite) = EndpointOrigin.resolve(location, requestURL: requestURL)
      let quoted = Quoted.string(EndpointError.short(absolute))
      if offSite {
        let reply = EndpointAdapter.query(of: absolute)
        if absolute.hasPrefix(redirectURI + "?"), let code = reply["code"], !code.isEmpty {
          return .proven(redirectURI: redirectURI)
        }
        guard let error = reply["error"] else {
          return .refused("the server redirected to \(quoted) without a code; redirect to the request's redirect_uri")
        }
        return .failed(hints.error(error, description: reply["error_description"], at: quoted))
      }
      let said = " (HTTP \(status) to \(Quoted.string(EndpointError.short(location))))"
      if absolute == requestURL.absoluteString || URL(string: absolute)?.path == requestURL.path {
        return .failed(hints.loop + said)
      }
      let path = location.lowercased()
      if ["login", "signin", "sign-in", "sign_in", "logon", "/auth/", "session"].contains(where: path.contains) {
        return .failed(hints.signIn(continuing: continueParameter(in: location, sent: parameters)) + said)
      }
      if ["consent", "approve", "grant", "authorize"].contains(where: path.contains) {
        return .failed(hints.consent + said)
      }
      if path.contains("error") {
        return .refused("the server redirected to its own error page \(quoted); " + hints.register)
      }
      return .failed(
        "the server redirected within its own origin to \(Quoted.string(EndpointError.short(location))), not to the"
          + " redirect URL with a code; follow it in a browser as the test user to see what it asks for")
    }
    let text = answer.page.lowercased().replacingOccurrences(of: "_", with: " ")
    let quoted = answer.bodyExcerpt.isEmpty ? "" : ": \(Quoted.string(answer.bodyExcerpt))"
    if answer.asksForPassword {
      return .failed(hints.signIn(continuing: nil) + " (HTTP \(status) with a password field)")
    }
    if text.contains("code challenge") || text.contains("pkce") {
      return .failed(hints.pkce + " (HTTP \(status)\(quoted))")
    }
    if status >= 400 && text.contains("scope") { return .failed(hints.scope + " (HTTP \(status)\(quoted))") }
    if (200...299).contains(status),
      ["consent", "authorize", "allow", "approve", "grant access", "permission"].contains(where: text.contains)
    {
      return .failed(hints.consent + " (HTTP \(status)\(quoted))")
    }
    let page = "the server answered HTTP \(status) without a redirect\(quoted)"
    switch status {
    case 400, 403, 422:
      return .refused(page + "; " + hints.register)
    case 401:
      return .failed(page + "; it asks for credentials the request did not carry: " + hints.session)
    case 404, 405:
      return .failed(page + "; check that --endpoint names the authorization endpoint's path")
    default:
      return .failed(page)
    }
  }

  /// The fixes the diagnoses name, worded for what the request carried.
  struct Hints {
    var cookieSent: Bool
    var parameters: [(String, String)]

    /// Whether the request carried `--param name=value`.
    func sent(_ name: String, _ value: String) -> Bool { parameters.contains { $0.0 == name && $0.1 == value } }

    /// How to hand the run a session.
    var session: String {
      cookieSent
        ? "renew the session, e.g. with --login-command"
        : "pass the signed-in test user's session with --cookie-file"
          + " FILE (a curl/Netscape jar), --login-command CMD or --cookie"
    }

    /// The login page came back; `continuing` is a parameter its link names that the server may need to go on.
    func signIn(continuing: String?) -> String {
      if let continuing, cookieSent {
        return "a session cookie was sent, but the server sends the test user to its login page, whose link names"
          + " the parameter \(Quoted.string(continuing)): some servers go on with a signed-in session only when the"
          + " request carries it; pass --param \(continuing)= (if that does not help, the session has expired: "
          + session + ")"
      }
      return cookieSent
        ? "a session cookie was sent, but the server still asks the test user to sign in (an expired session, or a"
          + " cookie for another host or path?); " + session
        : "no session cookie was sent, and the server asks the test user to sign in; " + session
    }

    /// The consent page came back.
    var consent: String {
      sent("prompt", "none")
        ? "the test user has not consented to Google's client, and with --param prompt=none the server says so"
          + " instead of asking; consent once with that session in a browser (or in the --login-command script), then"
          + " run again"
        : "the server shows a consent page: the test user has not consented to Google's client; consent once with that"
          + " session in a browser, or pass the server's own flag with --param (e.g. --param prompt=none)"
    }

    let register =
      "register the twelve App Flip redirect URLs for Google's client id (or, if the server needs a parameter of its"
      + " own, pass it with --param)"
    let pkce = "the server requires PKCE; add --pkce"
    let scope = "the server refuses the scope \"devices\"; pass one it knows with --scope (e.g. --scope openid)"
    let loop =
      "the server redirects the request back to its own authorization endpoint, a loop for a client that follows no"
      + " redirect; if it sets a cookie on the way, sign in with --login-command so the jar holds it (or pass it with"
      + " --cookie), and if it adds a parameter, pass that with --param"

    /// An error redirected to the redirect URL.
    func error(_ error: String, description: String?, at location: String) -> String {
      let said = "error=\(error)" + (description.map { " (\($0))" } ?? "")
      let both = said.lowercased().replacingOccurrences(of: "_", with: " ")
      if both.contains("code challenge") || both.contains("pkce") { return pkce + ": " + said }
      if error == "invalid_scope" || both.contains("scope") { return scope + ": " + said }
      if error == "consent_required" || error == "interaction_required" { return consent + ": " + said }
      if error == "login_required" { return signIn(continuing: nil) + ": " + said }
      return "the server refused the request with \(said) at \(location)"
    }
  }

  /// The name of a parameter the login page's link carries (itself, or inside a callback URL it holds) whose name
  /// says "continue", such as Glewlwyd's `g_continue`, when the request did not send it.
  static func continueParameter(in location: String, sent: [(String, String)]) -> String? {
    var text = location
    for _ in 0..<3 {
      guard let decoded = PercentEncoding.decode(text).map({ String(decoding: $0, as: UTF8.self) }), decoded != text
      else { break }
      text = decoded
    }
    let bytes = Array(text.utf8)
    let word = Array("continue".utf8)
    var index = 0
    while index + word.count <= bytes.count {
      defer { index += 1 }
      guard bytes[index..<index + word.count].elementsEqual(word) else { continue }
      let isName = { (byte: UInt8) in
        byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
          || (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
      }
      var start = index
      while start > 0, isName(bytes[start - 1]) { start -= 1 }
      var end = index + word.count
      while end < bytes.count, isName(bytes[end]) { end += 1 }
      guard start > 0, bytes[start - 1] == UInt8(ascii: "?") || bytes[start - 1] == UInt8(ascii: "&"),
        end == bytes.count || bytes[end] == UInt8(ascii: "=") || bytes[end] == UInt8(ascii: "&")
      else { continue }
      let name = String(decoding: bytes[start..<end], as: UTF8.self)
      if !sent.contains(where: { $0.0 == name }) { return name }
    }
    return nil
  }
}
