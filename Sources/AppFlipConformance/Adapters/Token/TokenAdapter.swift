import AppFlip
import Foundation

/// Follows each code of the endpoint profile to the partner's token endpoint, as Google's account linking does
/// server-to-server (APPFLIP-RULES AF-TK): the token profile's adapter.
///
/// It runs the endpoint vectors through its `EndpointAdapter` (the same requests, session and canary) and exchanges
/// each code one of them gets for an App Flip URL, for Google's client id, once, as Google does (AF-TK-1); it runs the
/// token vectors by getting a code the same way, then sending the vector's token requests. No secret leaves it: the
/// client secret, codes, verifiers and tokens are shown in what it returns and throws as their length and a short
/// hash (`TokenSecrets`).
package struct TokenAdapter: ConformanceAdapter {
  /// The authorization endpoint's adapter, which gets the codes.
  package var endpoint: EndpointAdapter
  /// The token endpoint.
  package var token: TokenEndpoint
  /// The secrets seen so far, shared by every copy of the adapter.
  package let secrets: TokenSecrets
  /// How many token requests in a row timed out, shared by every copy of the adapter.
  let timeouts = Locked(0)

  /// Creates the adapter for an authorization endpoint and its token endpoint.
  package init(endpoint: EndpointAdapter, token: TokenEndpoint) {
    self.endpoint = endpoint
    self.token = token
    secrets = TokenSecrets(secret: token.secret.value)
    secrets.remember(token.secret.wrong, as: "wrong client_secret")
  }

  /// Both endpoints, for reports.
  package var name: String { "\(endpoint.name) and token endpoint \(token.url.absoluteString)" }

  /// Token adapters run the endpoint and the token profiles' vectors.
  package var profile: VectorFile.Profile { .token }

  /// Sends the step as `handle(_:)` does: its authorization request, canary and token requests each keep the
  /// adapter's own timeout, a wait for a code to expire is the partner's `--code-lifetime`, and a cancelled task ends
  /// them at once, so a run arms no deadline of its own for it.
  package func send(_ request: HandlerRequest, within seconds: Double) async throws -> Observation {
    try await handle(request)
  }

  /// Gets a code with the step's authorization request, then exchanges it: as Google does for an endpoint vector
  /// whose request was Google's, or as the token vector's requests say.
  package func handle(_ request: HandlerRequest) async throws -> Observation {
    if let reason = skipReason(request.exchanges) { throw ImplementationSkipped(reason: reason) }
    let pair = endpoint.pkce ? EndpointPKCE() : nil
    if let pair { secrets.remember(pair.verifier, as: "code_verifier") }
    do {
      var observation = try await endpoint.handle(request, pkce: pair)
      // Known before any answer is read, so a server's words that quote a code are scrubbed too.
      for text in [observation.opened?.url ?? "", observation.diagnostics] + observation.findings.map(\.actual) {
        redactingCodes(text)
      }
      let code = code(in: observation.opened?.url)
      let issued = EndpointAdapter.parameters(of: request.link)
      let redirectURI = issued.first { $0.0 == "redirect_uri" }?.1
      if request.exchanges.isEmpty {
        if let code, let redirectURI, isGoogles(issued, answeredAt: observation.opened?.url, request.configuration) {
          try await exchange(
            [Vector.Exchange(expect: .token)], code: code, redirectURI: redirectURI, pair: pair, request: request,
            into: &observation)
        }
      } else if let code {
        try await exchange(
          request.exchanges, code: code, redirectURI: redirectURI, pair: pair, request: request, into: &observation)
      } else {
        let answer = observation.opened.map { "it redirected to \(Quoted.string($0.url))" } ?? observation.diagnostics
        throw ImplementationInconclusive(
          reason:
            "the authorization request got no code (\(answer.prefix(300))), so there is nothing to exchange at the"
            + " token endpoint; the endpoint vectors and the preflight say why")
      }
      return scrubbed(observation)
    } catch let skipped as ImplementationSkipped {
      throw skipped
    } catch let inconclusive as ImplementationInconclusive {
      throw ImplementationInconclusive(reason: scrubbed(inconclusive.reason))
    } catch let error as any DiagnosableError & CustomStringConvertible {
      throw AdapterError(message: scrubbed(error.description), diagnostics: scrubbed(error.diagnostics))
    }
  }

  /// Sends token requests in order (one, Google's, for an endpoint vector's code; a token vector's own), keeping the
  /// refresh token of the last answer that carried one. It stops, inconclusive, at a refresh request when no answer
  /// carried a refresh token, and sends nothing once `EndpointSession.timeoutLimit` requests in a row timed out.
  func exchange(
    _ exchanges: [Vector.Exchange], code: String, redirectURI: String?, pair: EndpointPKCE?, request: HandlerRequest,
    into observation: inout Observation
  ) async throws {
    let label = { (index: Int) in request.exchanges.isEmpty ? "the exchange of its code" : "token request \(index)" }
    var refreshToken: String?
    for (index, exchange) in exchanges.enumerated() {
      if timeouts.withLock({ $0 >= EndpointSession.timeoutLimit }) {
        observation.inconclusive =
          "\(label(index)) was not sent: the token endpoint did not answer \(EndpointSession.timeoutLimit)"
          + " requests in a row within \(endpoint.timeout) seconds, so the run stops sending there and ends in time;"
          + " check the server, or raise --timeout"
        return
      }
      if exchange.grant == .refreshToken && refreshToken == nil {
        observation.inconclusive =
          "\(label(index)) is a refresh grant (AF-TK-6), but no answer before it carried a refresh_token, so it was"
          + " not sent; the earlier requests' findings say why"
        return
      }
      if let wait = exchange.wait { try await Task.sleep(nanoseconds: UInt64(token.seconds(wait) * 1e9)) }
      do {
        let sent = try await send(
          exchange, code: code, redirectURI: redirectURI, pair: pair, refreshToken: refreshToken, request: request)
        timeouts.withLock { $0 = 0 }
        observation.exchanges.append(sent.answer)
        // The request and its answer in the diagnostics, so a report shows how to send it again.
        if !observation.diagnostics.isEmpty { observation.diagnostics += "\n" }
        observation.diagnostics += "\(label(index)): \(sent.answer.request) answered \(sent.answer.summary)"
        refreshToken = sent.refreshToken ?? refreshToken
      } catch let error as EndpointError {
        if case .timedOut = error { timeouts.withLock { $0 += 1 } }
        throw AdapterError(error, request: request.exchanges.isEmpty ? nil : index)
      }
    }
  }

  /// Why the adapter declines a token vector: it changes a PKCE verifier the run does not send, or waits out a code
  /// lifetime the partner has not stated.
  func skipReason(_ exchanges: [Vector.Exchange]) -> String? {
    if !endpoint.pkce, exchanges.contains(where: { $0.verifier != nil }) {
      return "changes the PKCE code_verifier (AF-TK-4), which a run without --pkce does not send; it runs with --pkce"
    }
    if token.codeLifetime == nil, exchanges.contains(where: { $0.wait != nil }) {
      return "waits out the code's lifetime (AF-TK-7), a slow check run only when asked: pass --code-lifetime SECONDS,"
        + " the lifetime your server states for its codes"
    }
    return nil
  }

  /// Whether the authorization request was Google's and its code came to that App Flip URL: one `client_id`, the
  /// configured one byte for byte, one `redirect_uri`, a configured URL, and the answer at exactly that URL.
  func isGoogles(_ issued: [(String, String)], answeredAt url: String?, _ configuration: PartnerConfiguration) -> Bool {
    let clients = issued.filter { $0.0 == "client_id" }.map(\.1)
    let redirects = issued.filter { $0.0 == "redirect_uri" }.map(\.1)
    guard clients.count == 1, redirects.count == 1, let url, Bytes.equal(clients[0], configuration.clientID),
      configuration.allowList.urls.contains(where: { Bytes.equal($0, redirects[0]) })
    else { return false }
    return url.utf8.starts(with: (redirects[0] + "?").utf8)
  }

  /// The code of a redirect URL's query: its one `code`, form-decoded.
  /// Split by `URLQuery` (in UTF-8: `&` followed by U+0301 still ends a parameter, as for the endpoint's redirect).
  func code(in url: String?) -> String? {
    guard let url else { return nil }
    let codes = URLQuery(url).parameters.filter { $0.raw.utf8.starts(with: "code=".utf8) }
    guard codes.count == 1, !codes[0].rawValue.isEmpty else { return nil }
    return codes[0].formValue.map { String(decoding: $0, as: UTF8.self) }
  }

  /// The text with the value of every `code` parameter (after `?` or `&`) replaced by its description, whatever its
  /// length, and remembered as a secret in both its forms: an off-site redirect, a `Location` a diagnostic quotes.
  @discardableResult
  func redactingCodes(_ text: String) -> String {
    var out = ""
    var rest = text[...]
    while let found = rest.range(of: "code=") {
      out += rest[..<found.upperBound]
      rest = rest[found.upperBound...]
      guard found.lowerBound > text.startIndex, "?&".contains(text[text.index(before: found.lowerBound)]) else {
        continue
      }
      // A code already described (a request the adapter showed) is left as it is.
      guard !TokenSecrets.startsWithDescription(rest) else { continue }
      let value = rest.prefix { !"&#\" '<>\n\r".contains($0) }
      guard !value.isEmpty else { continue }
      let decoded = PercentEncoding.decode(value, plusAsSpace: true).map { String(decoding: $0, as: UTF8.self) }
      out += secrets.remember(decoded ?? String(value), as: "code", encodedAs: String(value))
      rest = rest[value.endIndex...]
    }
    return out + rest
  }

  /// A message with any code it quotes, and every known secret, replaced by its description.
  func scrubbed(_ text: String) -> String {
    secrets.scrub(redactingCodes(text))
  }

  /// The observation with every secret replaced by its description: the opened URL, diagnostics, findings.
  func scrubbed(_ observation: Observation) -> Observation {
    var observation = observation
    if let opened = observation.opened {
      observation.opened = OpenedURL(url: scrubbed(opened.url), universalLinksOnly: opened.universalLinksOnly)
    }
    observation.diagnostics = scrubbed(observation.diagnostics)
    observation.inconclusive = observation.inconclusive.map(scrubbed)
    for index in observation.findings.indices {
      observation.findings[index].actual = scrubbed(observation.findings[index].actual)
    }
    return observation
  }

  /// Stops what the endpoint adapter started.
  package func shutdown() { endpoint.shutdown() }

  /// One token request's answer, and the refresh token it carried, which a later refresh request sends.
  struct Sent {
    var answer: TokenAnswer
    var refreshToken: String?
  }

  /// A form parameter: its name, its value, and the value as a report shows it (a secret described).
  typealias Field = (name: String, value: String, shown: String)

  /// The members of an answer that hold tokens, never shown.
  static let tokenMembers: Set<String> = ["access_token", "refresh_token", "id_token"]

  /// A token request ready to send: its form body, its headers, whether it logs in with HTTP Basic, and how a report
  /// shows it (secrets described).
  struct Built {
    var body: String
    var headers: [(String, String)]
    var basic: Bool
    var shown: String
  }

  /// Sends one token request (`build`); returns what the token endpoint answered.
  func send(
    _ exchange: Vector.Exchange, code: String, redirectURI: String?, pair: EndpointPKCE?, refreshToken: String? = nil,
    request: HandlerRequest
  ) async throws -> Sent {
    let built = build(
      exchange, code: code, redirectURI: redirectURI, pair: pair, refreshToken: refreshToken,
      clientID: exchange.clientID ?? request.configuration.clientID)
    let answer = try await EndpointTransport.send(
      token.url, headers: built.headers, body: Array(built.body.utf8), timeout: endpoint.timeout,
      caCertificate: token.caCertificate)
    return read(answer, request: built.shown, grant: exchange.grant, basic: built.basic)
  }

  /// Builds one token request: Google's exchange of `code` for the `redirectURI` of its authorization request (or the
  /// refresh grant with `refreshToken`), with the configured client authentication and PKCE verifier, changed as the
  /// request says (RFC 6749 §2.3.1, §4.1.3, §6; RFC 7636 §4.5).
  func build(
    _ exchange: Vector.Exchange, code: String, redirectURI: String?, pair: EndpointPKCE?, refreshToken: String?,
    clientID: String
  ) -> Built {
    var form: [Field] = []
    func secret(_ name: String, _ value: String, as kind: String) -> Field {
      (name, value, secrets.remember(value, as: kind))
    }
    func plain(_ name: String, _ value: String) -> Field { (name, value, PercentEncoding.encode(value)) }
    switch exchange.grant {
    case .authorizationCode:
      form = [plain("grant_type", "authorization_code"), secret("code", code, as: "code")]
      if let redirectURI { form.append(plain("redirect_uri", redirectURI)) }
    case .refreshToken:
      form = [plain("grant_type", "refresh_token"), secret("refresh_token", refreshToken ?? "", as: "refresh_token")]
    }
    for parameter in exchange.set {
      let field = plain(parameter.name, parameter.value ?? "")
      if let index = form.firstIndex(where: { $0.name == parameter.name }) {
        form[index] = field
      } else {
        form.append(field)
      }
    }
    form.removeAll { exchange.omit.contains($0.name) }
    let password: Field? =
      switch exchange.secret {
      case nil: secret("client_secret", token.secret.value, as: "client_secret")
      case .wrong?: secret("client_secret", token.secret.wrong, as: "wrong client_secret")
      case .missing?: nil
      }
    let basic = (exchange.auth ?? token.auth) == .basic
    var headers: [(String, String)] = []
    var how = "client_secret_post"
    if basic {
      // RFC 6749 §2.3.1: the id and the secret are form-encoded, then joined for HTTP Basic (RFC 7617).
      let pair = PercentEncoding.encode(clientID) + ":" + PercentEncoding.encode(password?.value ?? "")
      headers.append(("Authorization", "Basic " + Data(pair.utf8).base64EncodedString()))
      how = "HTTP Basic: client_id \(Quoted.string(clientID)), password \(password?.shown ?? "empty")"
    } else {
      form.append(plain("client_id", clientID))
      if let password { form.append(password) }
    }
    if exchange.grant == .authorizationCode, let pair {
      switch exchange.verifier {
      case nil: form.append(secret("code_verifier", pair.verifier, as: "code_verifier"))
      case .wrong?: form.append(secret("code_verifier", EndpointPKCE().verifier, as: "wrong code_verifier"))
      case .missing?: break
      }
    }
    return Built(
      body: PercentEncoding.query(form.map { ($0.name, $0.value) }),
      headers: headers, basic: basic,
      shown: "POST \(token.url.absoluteString) (\(how)) with the form "
        + form.map { PercentEncoding.encode($0.name) + "=" + $0.shown }.joined(separator: "&"))
  }

  /// What a token answer says, every token described and remembered, every other string scrubbed.
  func read(_ answer: EndpointAnswer, request: String, grant: Vector.Exchange.Grant, basic: Bool) -> Sent {
    var read = TokenAnswer(
      request: request, grant: grant, basic: basic, status: answer.status,
      contentType: answer.head?.value("content-type").map(secrets.scrub),
      cacheControl: answer.head?.value("cache-control"),
      wwwAuthenticate: answer.head?.value("www-authenticate").map(secrets.scrub))
    var refreshToken: String?
    let decoder = JSONDecoder()
    if let object = try? decoder.decode([String: JSONMember].self, from: Data(answer.body)) {
      for (name, value) in object {
        if Self.tokenMembers.contains(name), let token = value.string, !token.isEmpty {
          read.members[name] = .secret(secrets.remember(token, as: name))
          if name == "refresh_token" { refreshToken = token }
        } else {
          read.members[name] = value.string.map { .string(secrets.scrub($0)) } ?? .other(value.text)
        }
      }
    } else {
      read.notJSON = notJSON(answer, fragment: try? decoder.decode(JSONMember.self, from: Data(answer.body)))
    }
    return Sent(answer: read, refreshToken: refreshToken)
  }

  /// A body that is not a JSON object, in words: form data with its tokens described, other JSON, or the start of
  /// its text.
  func notJSON(_ answer: EndpointAnswer, fragment: JSONMember?) -> String {
    if answer.body.isEmpty { return "an empty body" }
    if let fragment {
      return "JSON that is not an object: " + secrets.scrub(fragment.string.map { Quoted.string($0) } ?? fragment.text)
    }
    let text = String(decoding: answer.body.prefix(4096), as: UTF8.self)
    let isForm =
      answer.head?.value("content-type")?.lowercased().contains("x-www-form-urlencoded") == true
      || (!text.contains(" ") && !text.contains("<") && text.contains("="))
    if isForm {
      let fields = EndpointAdapter.parameters(of: "?" + text).map { name, value in
        let shown = Self.tokenMembers.contains(name) ? secrets.remember(value, as: name) : PercentEncoding.encode(value)
        return PercentEncoding.encode(name) + "=" + shown
      }
      return "form data, not JSON: " + secrets.scrub(String(fields.joined(separator: "&").prefix(300)))
    }
    let excerpt = answer.bodyExcerpt.isEmpty ? "" : ": " + Quoted.string(secrets.scrub(answer.bodyExcerpt))
    return "text that is not JSON (\(answer.body.count) bytes)" + excerpt
  }
}

/// One JSON value of a token answer: a string as it is, anything else as JSON text (nested values in short).
///
/// Read with `JSONDecoder`, not `JSONSyntax.value(of:)`: the verdicts rest on its reading, which takes what the strict
/// scan refuses (a trailing comma, a repeated name, the first kept; a BOM; UTF-16) and reads a number by its value
/// (`3600.0` and `3.6e3` are the whole seconds `3600`; `1e400` makes the body no JSON).
struct JSONMember: Decodable {
  /// The value, when it is a string.
  var string: String?
  /// The value as JSON text, e.g. `3600`, `true`, `null`, `"Bearer"`.
  var text: String

  init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    if container.decodeNil() {
      text = "null"
    } else if let string = try? container.decode(String.self) {
      self.string = string
      text = Quoted.string(string)
    } else if let bool = try? container.decode(Bool.self) {
      text = bool ? "true" : "false"
    } else if let integer = try? container.decode(Int64.self) {
      text = String(integer)
    } else if let number = try? container.decode(Double.self) {
      text = String(number)
    } else if (try? container.decode([JSONMember].self)) != nil {
      text = "[an array]"
    } else {
      _ = try container.decode([String: JSONMember].self)
      text = "{an object}"
    }
  }
}
