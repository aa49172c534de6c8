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
      throw AdapterError(description: scrubbed(error.description), diagnostics: scrubbed(error.diagnostics))
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
}
