import AppFlip
import Foundation

/// The subprocess protocol, versions 1 and 2 (Docs/PROTOCOL.md): the harness's messages, written as JSON lines.
///
/// The harness writes its messages itself, field by field, so their order is the documented one and every string is
/// carried exactly, unnormalized, in pure ASCII (`\u` escapes for everything else).
enum SubprocessProtocol {
  /// The versions this harness speaks; the implementation picks one in its `ready` message.
  static let versions = [1, 2]
  /// The version `start` names for implementations written for version 1, which answer with it.
  static let baseVersion = 1
  /// The key under which a decoder's `userInfo` carries the negotiated version.
  static let versionKey = CodingUserInfoKey(rawValue: "appflip.protocolVersion")!

  /// `{"cmd":"start","version":1,"versions":[1,2]}`: version 1 for implementations that know only it, and every
  /// version the harness speaks.
  static func start() -> [UInt8] {
    SubprocessJSON.line(
      .object([
        ("cmd", .string("start")), ("version", .int(baseVersion)),
        ("versions", .array(versions.map(SubprocessJSON.Value.int))),
      ]))
  }

  /// `{"cmd":"code","seq":7,"outcome":{…}}` (version 2): the scripted answer to the step's code request.
  static func code(seq: Int, outcome: AuthorizationOutcome) -> [UInt8] {
    SubprocessJSON.line(.object([("cmd", .string("code")), ("seq", .int(seq)), ("outcome", self.outcome(outcome))]))
  }

  /// A decoder for the implementation's messages under the negotiated version.
  static func decoder(version: Int) -> JSONDecoder {
    let decoder = JSONDecoder()
    decoder.userInfo[versionKey] = version
    return decoder
  }

  /// `{"cmd":"stop"}`.
  static func stop() -> [UInt8] {
    SubprocessJSON.line(.object([("cmd", .string("stop"))]))
  }

  /// One step of a vector: the link and the configuration, numbered `seq`; in version 1 also the scripted outcome (in
  /// version 2 the implementation asks for it with a code request).
  static func run(
    seq: Int, request: HandlerRequest, version: Int = 1, configurationJSON: [UInt8]? = nil
  ) -> [UInt8] {
    let outcome: [(String, SubprocessJSON.Value)] = version == 1 ? [("outcome", self.outcome(request.outcome))] : []
    let configuration = configurationJSON ?? Self.configuration(request.configuration)
    return SubprocessJSON.line(
      .object(
        [
          ("cmd", .string("run")), ("seq", .int(seq)), ("vector", .string(request.vectorID)),
          ("step", .int(request.step)), ("link", .string(request.link)),
        ] + outcome + [("configuration", .raw(configuration))]))
  }

  /// `{"clientId":…,"universalLink":…,"allowedRedirectUris":[…]}`, the configuration part of `run`.
  static func configuration(_ configuration: PartnerConfiguration) -> [UInt8] {
    SubprocessJSON.bytes(
      .object([
        ("clientId", .string(configuration.clientID)),
        ("universalLink", .string(configuration.universalLink)),
        ("allowedRedirectUris", .array(configuration.allowList.urls.map(SubprocessJSON.Value.string))),
      ]))
  }

  /// An outcome as in vector files: `{"result":"granted","code":"c1"}` or `{"result":"offline"}`.
  static func outcome(_ outcome: AuthorizationOutcome) -> SubprocessJSON.Value {
    let result: Vector.Outcome.Result
    switch outcome {
    case .granted(let code): return .object([("result", .string("granted")), ("code", .string(code))])
    case .signInFailed: result = .signInFailed
    case .offline: result = .offline
    case .timedOut: result = .timedOut
    case .accountDisabled: result = .accountDisabled
    case .consentDenied: result = .consentDenied
    }
    return .object([("result", .string(result.rawValue))])
  }

  /// A decoding error as one clause naming the field, e.g. `field "opened.url" is missing`.
  static func describe(_ error: any Error, version: Int = 1) -> String {
    func field(_ path: [any CodingKey]) -> String {
      path.isEmpty ? "the message" : "field \"\(path.fieldPath)\""
    }
    switch DecodingProblem(error) {
    case .unknownField(let path, let known):
      return
        "\(field(path)) is not part of protocol version \(version); use only "
        + known.map { "\"\($0)\"" }.joined(separator: ", ")
    case .missing(let path):
      return "\(field(path)) is missing"
    case .wrongType(let path, let type):
      return "\(field(path)) must be \(DecodingProblem.kind(of: type, wording: .protocolMessage))"
    case .null(let path, let type):
      return "\(field(path)) is null; it must be \(DecodingProblem.kind(of: type, wording: .protocolMessage))"
    case .corrupted(let path, _, let detail):
      return "\(field(path)) \(detail)"
    case .other(let error):
      return "\(error)"
    }
  }
}

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
  }

  /// A line from the implementation, read in one pass: its envelope, and the code request (version 2) or the response it
  /// holds, or why that breaks the protocol.
  struct Incoming: Decodable {
    /// Its `seq`, and whether it is a code request.
    var envelope: Envelope
    /// The code request, when it is one under version 2.
    var codeRequest: Result<CodeRequest, any Error>?
    /// The response, otherwise.
    var response: Result<Response, any Error>?

    init(from decoder: any Decoder) throws {
      envelope = try Envelope(from: decoder)
      let version = decoder.userInfo[versionKey] as? Int ?? 1
      if envelope.isCodeRequest && version >= 2 {
        codeRequest = Result { try CodeRequest(from: decoder) }
      } else {
        response = Result { try Response(from: decoder) }
      }
    }
  }
}

extension SubprocessProtocol.CodeRequest {
  /// Decodes strictly; declared here, so the fast reader keeps the memberwise initializer.
  init(from decoder: any Decoder) throws {
    let container = try decoder.strictContainer(keyedBy: CodingKeys.self)
    seq = try container.decode(Int.self, forKey: .seq)
    request = try container.decode(SubprocessProtocol.Response.Authorization.self, forKey: .codeRequest).request
  }
}
