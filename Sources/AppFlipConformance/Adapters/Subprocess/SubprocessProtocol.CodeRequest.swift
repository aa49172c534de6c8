import AppFlip

extension SubprocessProtocol {
  /// A version 2 code request: the handler of the step numbered `seq` asks its OAuth server for a code, and waits for
  /// the harness's `code` answer (Docs/PROTOCOL.md, "codeRequest").
  struct CodeRequest: Decodable, Sendable, Hashable {
    /// The step the request belongs to.
    var seq: Int
    /// Google's client id, the redirect URI and the scopes the code is asked for.
    var request: AuthorizationRequest

    enum CodingKeys: String, CodingKey, CaseIterable {
      case seq, codeRequest
    }

    init(from decoder: any Decoder) throws {
      let container = try decoder.strictContainer(keyedBy: CodingKeys.self)
      seq = try container.decode(Int.self, forKey: .seq)
      request = try container.decode(Response.Authorization.self, forKey: .codeRequest).request
    }
  }
}
