extension Vector {
  /// One token request of a token vector (RULES.md AF-TK): the vector's code exchanged as Google's account linking
  /// sends it (RFC 6749 §4.1.3), or the refresh grant (§6), with the variations the vector makes, and the answer a
  /// conformant token endpoint gives.
  ///
  /// In JSON: `{"expect": "token"}` for the exchange as Google makes it; variations such as
  /// `{"set": [["redirect_uri", "{redirect_uri}/"]], "expect": {"error": ["invalid_grant"]}}`,
  /// `{"secret": "wrong", "auth": "basic", …}` or `{"grant": "refresh_token", …}`.
  package struct Exchange: Sendable, Hashable, Codable {
    /// The grant a request makes.
    package enum Grant: String, Sendable, Hashable, Codable, CaseIterable {
      /// The vector's code, with the authorization request's `redirect_uri` (RFC 6749 §4.1.3).
      case authorizationCode = "authorization_code"
      /// The refresh token of the last answer that carried one (RFC 6749 §6).
      case refreshToken = "refresh_token"
    }

    /// How the client authenticates (RFC 6749 §2.3.1).
    package enum ClientAuth: String, Sendable, Hashable, Codable, CaseIterable {
      /// `client_id` and `client_secret` in the form body, as Google's account linking sends them by default.
      case body
      /// HTTP Basic: `Authorization: Basic` with the form-encoded id and secret.
      case basic
    }

    /// A change to the client secret sent.
    package enum SecretVariation: String, Sendable, Hashable, Codable, CaseIterable {
      /// The configured secret with its last character changed.
      case wrong
      /// No secret (an empty password under Basic).
      case missing
    }

    /// A change to the PKCE `code_verifier` sent (RFC 7636 §4.5); only with `--pkce`.
    package enum VerifierVariation: String, Sendable, Hashable, Codable, CaseIterable {
      /// A fresh verifier that does not match the challenge.
      case wrong
      /// No verifier.
      case missing
    }

    /// A wait before the request, in terms of the code lifetime the partner states (`--code-lifetime`).
    package enum Wait: String, Sendable, Hashable, Codable, CaseIterable {
      /// Half the stated lifetime: the code must still work.
      case halfLifetime = "half-lifetime"
      /// The stated lifetime and two seconds: the code must have expired.
      case pastLifetime = "past-lifetime"
    }

    /// What a conformant token endpoint answers.
    package enum Answer: Sendable, Hashable, Codable {
      /// A token (RFC 6749 §5.1).
      case token
      /// No token: an error with one of these RFC 6749 §5.2 codes, each as good as the others.
      case error([String])

      enum CodingKeys: String, CodingKey, CaseIterable {
        case error
      }

      /// Decodes `"token"` or `{"error": ["invalid_grant", …]}`.
      package init(from decoder: any Decoder) throws {
        if let word = try? decoder.singleValueContainer().decode(String.self) {
          guard word == "token" else {
            throw DecodingError.dataCorrupted(
              .init(
                codingPath: decoder.codingPath,
                debugDescription: "an answer is \"token\" or {\"error\": [\"invalid_grant\", …]}"))
          }
          self = .token
          return
        }
        let container = try decoder.strictContainer(keyedBy: CodingKeys.self)
        let codes = try container.decode([String].self, forKey: .error)
        guard !codes.isEmpty else {
          throw DecodingError.dataCorruptedError(
            forKey: .error, in: container, debugDescription: "name at least one RFC 6749 §5.2 error code")
        }
        self = .error(codes)
      }

      /// Encodes in the vector-file format.
      package func encode(to encoder: any Encoder) throws {
        switch self {
        case .token:
          var container = encoder.singleValueContainer()
          try container.encode("token")
        case .error(let codes):
          var container = encoder.container(keyedBy: CodingKeys.self)
          try container.encode(codes, forKey: .error)
        }
      }
    }

    /// The error codes of RFC 6749 §5.2.
    package static let errorCodes = [
      "invalid_request", "invalid_client", "invalid_grant", "unauthorized_client", "unsupported_grant_type",
      "invalid_scope",
    ]

    /// The grant; `authorization_code` unless given.
    package var grant = Grant.authorizationCode
    /// Form parameters whose values replace the ones Google sends, or are added, e.g. `["redirect_uri", "{redirect_uri}/"]`.
    package var set: [Parameter] = []
    /// Form parameters Google sends that are left out, e.g. `redirect_uri`.
    package var omit: [String] = []
    /// The client authentication method instead of the configured one (`--token-auth`).
    package var auth: ClientAuth?
    /// Another client id, sent where the authentication method sends it.
    package var clientID: String?
    /// A wrong or missing secret.
    package var secret: SecretVariation?
    /// A wrong or missing PKCE verifier.
    package var verifier: VerifierVariation?
    /// A wait before the request.
    package var wait: Wait?
    /// The answer.
    package var expect: Answer

  }
}

extension Vector.Exchange {
  enum CodingKeys: String, CodingKey, CaseIterable {
    case grant, set, omit, auth
    case clientID = "clientId"
    case secret, verifier, wait, expect
  }

  /// Decodes strictly: a field the format does not define is refused.
  package init(from decoder: any Decoder) throws {
    let container = try decoder.strictContainer(keyedBy: CodingKeys.self)
    grant = try container.decodeIfPresent(Grant.self, forKey: .grant) ?? .authorizationCode
    set = try container.decodeIfPresent([Vector.Parameter].self, forKey: .set) ?? []
    omit = try container.decodeIfPresent([String].self, forKey: .omit) ?? []
    auth = try container.decodeIfPresent(ClientAuth.self, forKey: .auth)
    clientID = try container.decodeIfPresent(String.self, forKey: .clientID)
    secret = try container.decodeIfPresent(SecretVariation.self, forKey: .secret)
    verifier = try container.decodeIfPresent(VerifierVariation.self, forKey: .verifier)
    wait = try container.decodeIfPresent(Wait.self, forKey: .wait)
    expect = try container.decode(Answer.self, forKey: .expect)
  }

  /// Encodes in the vector-file format, leaving out what is not changed.
  package func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    if grant != .authorizationCode { try container.encode(grant, forKey: .grant) }
    if !set.isEmpty { try container.encode(set, forKey: .set) }
    if !omit.isEmpty { try container.encode(omit, forKey: .omit) }
    try container.encodeIfPresent(auth, forKey: .auth)
    try container.encodeIfPresent(clientID, forKey: .clientID)
    try container.encodeIfPresent(secret, forKey: .secret)
    try container.encodeIfPresent(verifier, forKey: .verifier)
    try container.encodeIfPresent(wait, forKey: .wait)
    try container.encode(expect, forKey: .expect)
  }
}

extension Vector.Exchange {
  /// The request with the partner's configuration filled in (`set` values and `clientId`), or why the vector does not
  /// apply to it; the code, tokens and secret are filled in only as the request is sent.
  package func rendered(with configuration: PartnerConfiguration) throws(RenderedStep.SkipReason) -> Self {
    let plain = Substitution(configuration: configuration, encoded: false)
    var rendered = self
    rendered.set = []
    for parameter in set {
      var value: String?
      if let template = parameter.value { value = try plain.apply(template).get() }
      rendered.set.append(Vector.Parameter(try plain.apply(parameter.name).get(), value))
    }
    if let clientID { rendered.clientID = try plain.apply(clientID).get() }
    return rendered
  }
}
