import AppFlip
import Foundation

extension TokenAdapter {
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
