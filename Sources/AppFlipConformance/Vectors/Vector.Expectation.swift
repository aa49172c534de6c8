import AppFlip

/// What a conformant handler does with a step's link: the verdict, the code request, and the URL it opens; as a
/// vector writes it (`Vector.Expectation`) and with the partner's values filled in (`RenderedExpectation`), the exact
/// verdict, code request and reply the judge checks an observation against.
package struct Expectation<Reply: Sendable & Hashable>: Sendable, Hashable {
  /// accepted, rejected or ignored (APPFLIP-RULES "Verdicts").
  package var verdict: Verdict
  /// The one code request an accepted link makes; absent means no code may be requested.
  package var authorization: Vector.ExpectedAuthorization?
  /// The URL the handler opens; absent means it opens nothing.
  package var reply: Reply?
  /// For an association-profile step: what it checks about the association file; absent, that its link opens the app.
  package var association: Vector.AssociationCheck?

  /// Creates an expectation.
  package init(
    verdict: Verdict, authorization: Vector.ExpectedAuthorization? = nil, reply: Reply? = nil,
    association: Vector.AssociationCheck? = nil
  ) {
    self.verdict = verdict
    self.authorization = authorization
    self.reply = reply
    self.association = association
  }
}

extension Expectation: Codable where Reply: Codable {
  enum CodingKeys: String, CodingKey, CaseIterable {
    case verdict, authorization, reply, association
  }

  /// Decodes strictly: a field the format does not define is refused.
  package init(from decoder: any Decoder) throws {
    let container = try decoder.strictContainer(keyedBy: CodingKeys.self)
    verdict = try container.decode(Verdict.self, forKey: .verdict)
    authorization = try container.decodeIfPresent(Vector.ExpectedAuthorization.self, forKey: .authorization)
    reply = try container.decodeIfPresent(Reply.self, forKey: .reply)
    association = try container.decodeIfPresent(Vector.AssociationCheck.self, forKey: .association)
  }
}

extension Vector {
  /// What a conformant handler does with a step's link, as the vector writes it (placeholders and all).
  package typealias Expectation = AppFlipConformance.Expectation<ExpectedReply>

  /// The authorization-code request the handler must make, field by field.
  package struct ExpectedAuthorization: Sendable, Hashable, Codable {
    /// The client id the code is requested for (normally `{client_id}`).
    package var clientID: String
    /// The redirect URI the code is bound to: the validated incoming one (AF-RU-3).
    package var redirectURI: String
    /// The scopes, in order; absent when the vector does not assert them (AF-IN-7).
    package var scopes: [String]?

    /// Creates an expected authorization request.
    package init(clientID: String, redirectURI: String, scopes: [String]?) {
      self.clientID = clientID
      self.redirectURI = redirectURI
      self.scopes = scopes
    }

    enum CodingKeys: String, CodingKey, CaseIterable {
      case clientID = "clientId"
      case redirectURI = "redirectUri"
      case scopes
    }

    /// Decodes strictly: a field the format does not define is refused.
    package init(from decoder: any Decoder) throws {
      let container = try decoder.strictContainer(keyedBy: CodingKeys.self)
      clientID = try container.decode(String.self, forKey: .clientID)
      redirectURI = try container.decode(String.self, forKey: .redirectURI)
      scopes = try container.decodeIfPresent([String].self, forKey: .scopes)
    }
  }

  /// The return URL: its base, and either `code` + `state` or `error` (+ `state` when the request had one).
  package struct ExpectedReply: Sendable, Hashable, Codable {
    /// `{code}`: any one non-empty code, for endpoint vectors where the server mints it.
    package static let anyCode = "{code}"

    /// The part before `?`, byte for byte: the validated incoming `redirect_uri` (AF-RE-1).
    package var base: String
    /// The authorization code, for a success reply.
    package var code: String?
    /// The exact incoming `state`; absent when the request had no single valid one.
    package var state: String?
    /// The state as hexadecimal bytes, for a state whose decoded bytes are not UTF-8 (AF-IN-8); instead of `state`.
    package var stateHex: String?
    /// The error code, for an error reply.
    package var error: AppFlipErrorCode?

    /// Creates an expected reply.
    package init(
      base: String, code: String? = nil, state: String? = nil, stateHex: String? = nil, error: AppFlipErrorCode? = nil
    ) {
      self.base = base
      self.code = code
      self.state = state
      self.stateHex = stateHex
      self.error = error
    }

    /// The bytes `state` must decode to, from `state` or `stateHex`; `nil` when no state may be returned.
    package var stateBytes: [UInt8]? {
      if let stateHex { return Hex.bytes(stateHex) }
      return state.map { Array($0.utf8) }
    }

    enum CodingKeys: String, CodingKey, CaseIterable {
      case base, code, state, stateHex, error
    }

    /// Decodes strictly: a field the format does not define is refused.
    package init(from decoder: any Decoder) throws {
      let container = try decoder.strictContainer(keyedBy: CodingKeys.self)
      base = try container.decode(String.self, forKey: .base)
      code = try container.decodeIfPresent(String.self, forKey: .code)
      state = try container.decodeIfPresent(String.self, forKey: .state)
      stateHex = try container.decodeIfPresent(String.self, forKey: .stateHex)
      error = try container.decodeIfPresent(AppFlipErrorCode.self, forKey: .error)
      if state != nil && stateHex != nil {
        throw DecodingError.dataCorruptedError(
          forKey: .stateHex, in: container, debugDescription: "give either \"state\" or \"stateHex\", not both")
      }
      if let stateHex, Hex.bytes(stateHex) == nil {
        throw DecodingError.dataCorruptedError(
          forKey: .stateHex, in: container,
          debugDescription: "\"stateHex\" is pairs of hexadecimal digits, e.g. \"ff\" or \"73c328\"")
      }
      if (code == nil) == (error == nil) {
        throw DecodingError.dataCorruptedError(
          forKey: code == nil ? .code : .error, in: container,
          debugDescription: "a reply has either \"code\" or \"error\", exactly one of them")
      }
    }
  }
}
