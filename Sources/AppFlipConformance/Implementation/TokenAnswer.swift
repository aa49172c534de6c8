/// What a token endpoint answered to one request (APPFLIP-RULES AF-TK), as the judge reads it: no secret is kept, a
/// token only as its length and a short hash, and the request as sent, its secrets described the same way.
package struct TokenAnswer: Sendable, Hashable {
  /// A member of a JSON object answer.
  package enum Member: Sendable, Hashable {
    /// A string, shown as sent (`token_type`, `error`, …).
    case string(String)
    /// A token (`access_token`, `refresh_token`, `id_token`): its length and short hash, e.g. `(access_token: 43
    /// bytes, sha256 9f86d081)`; two tokens are the same when their descriptions are.
    case secret(String)
    /// Any other JSON value, as JSON text (`3600`, `null`, `["a"]`).
    case other(String)

    /// The member as a report shows it.
    package var shown: String {
      switch self {
      case .string(let text): Quoted.string(text)
      case .secret(let description): description
      case .other(let json): json
      }
    }
  }

  /// The request as sent, secrets described, enough to send it again: method, URL, authentication and form.
  package var request: String
  /// The grant the request made.
  package var grant: Vector.Exchange.Grant
  /// Whether the client authenticated with HTTP Basic (RFC 6749 §5.2: `invalid_client` is then 401 with
  /// `WWW-Authenticate`).
  package var basic: Bool
  /// The HTTP status.
  package var status: Int
  /// The `Content-Type` header.
  package var contentType: String?
  /// The `Cache-Control` headers, joined.
  package var cacheControl: String?
  /// The `WWW-Authenticate` header.
  package var wwwAuthenticate: String?
  /// The members of the body, when it is a JSON object.
  package var members: [String: Member] = [:]
  /// What the body is when it is not a JSON object, in words (`form data: access_token=(…)&…`, `an empty body`);
  /// `nil` for a JSON object.
  package var notJSON: String?

  /// The access token's description, when the answer carries a non-empty one.
  package var accessToken: String? {
    if case .secret(let description)? = members["access_token"] { description } else { nil }
  }

  /// Whether `token_type` is `Bearer`, in any case (RFC 6749 §5.1, RFC 6750 §4).
  package var isBearer: Bool {
    if case .string(let type)? = members["token_type"] { type.lowercased() == "bearer" } else { false }
  }

  /// Whether `expires_in` is a JSON number of whole seconds.
  package var expiresInSeconds: Bool {
    guard case .other(let text)? = members["expires_in"] else { return false }
    return !text.isEmpty && text.utf8.allSatisfy { (0x30...0x39).contains($0) }
  }

  /// The body as a report shows it: a JSON object's members in name order, tokens described.
  package var body: String {
    if let notJSON { return notJSON }
    return "{"
      + members.sorted { $0.key < $1.key }.map { "\(Quoted.string($0.key)): \($0.value.shown)" }
      .joined(separator: ", ") + "}"
  }

  /// The answer in one line, for the report: status, the headers the rules read, and the body.
  package var summary: String {
    var headers = contentType.map { ["Content-Type: \($0)"] } ?? []
    if let cacheControl { headers.append("Cache-Control: \(cacheControl)") }
    if let wwwAuthenticate { headers.append("WWW-Authenticate: \(wwwAuthenticate)") }
    return "HTTP \(status)" + (headers.isEmpty ? "" : " (\(headers.joined(separator: "; ")))") + " \(body)"
  }
}
