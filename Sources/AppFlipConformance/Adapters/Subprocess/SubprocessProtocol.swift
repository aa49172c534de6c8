import AppFlip

/// The subprocess protocol, versions 1 and 2 (Docs/PROTOCOL.md): the harness's messages, written as JSON lines, and
/// the implementation's, read strictly (`SubprocessProtocol+Reading.swift`).
///
/// The harness writes its messages itself, field by field, so their order is the documented one and every string is
/// carried exactly, unnormalized, in pure ASCII (`\u` escapes for everything else).
enum SubprocessProtocol {
  /// The versions this harness speaks; the implementation picks one in its `ready` message.
  static let versions = [1, 2]
  /// The version `start` names for implementations written for version 1, which answer with it.
  static let baseVersion = 1

  /// `{"cmd":"start","version":1,"versions":[1,2]}`: version 1 for implementations that know only it, and every
  /// version the harness speaks.
  static func start() -> [UInt8] {
    JSONSyntax.line(
      .object([
        ("cmd", .string("start")), ("version", .number(String(baseVersion))),
        ("versions", .array(versions.map { .number(String($0)) })),
      ]))
  }

  /// `{"cmd":"code","seq":7,"outcome":{…}}` (version 2): the scripted answer to the step's code request.
  static func code(seq: Int, outcome: AuthorizationOutcome) -> [UInt8] {
    JSONSyntax.line(
      .object([("cmd", .string("code")), ("seq", .number(String(seq))), ("outcome", self.outcome(outcome))]))
  }

  /// `{"cmd":"stop"}`.
  static func stop() -> [UInt8] {
    JSONSyntax.line(.object([("cmd", .string("stop"))]))
  }

  /// One step of a vector: the link and the configuration, numbered `seq`; in version 1 also the scripted outcome (in
  /// version 2 the implementation asks for it with a code request).
  static func run(seq: Int, request: HandlerRequest, version: Int = 1) -> [UInt8] {
    let outcome: [(String, JSONSyntax.Value)] = version == 1 ? [("outcome", self.outcome(request.outcome))] : []
    return JSONSyntax.line(
      .object(
        [
          ("cmd", .string("run")), ("seq", .number(String(seq))), ("vector", .string(request.vectorID)),
          ("step", .number(String(request.step))), ("link", .string(request.link)),
        ] + outcome + [("configuration", configuration(request.configuration))]))
  }

  /// `{"clientId":…,"universalLink":…,"allowedRedirectUris":[…]}`, the configuration part of `run`.
  static func configuration(_ configuration: PartnerConfiguration) -> JSONSyntax.Value {
    .object([
      ("clientId", .string(configuration.clientID)),
      ("universalLink", .string(configuration.universalLink)),
      ("allowedRedirectUris", .array(configuration.allowList.urls.map(JSONSyntax.Value.string))),
    ])
  }

  /// An outcome as in vector files: `{"result":"granted","code":"c1"}` or `{"result":"offline"}`.
  static func outcome(_ outcome: AuthorizationOutcome) -> JSONSyntax.Value {
    let outcome = Vector.Outcome(outcome)
    return .object(
      [("result", .string(outcome.result.rawValue))] + (outcome.code.map { [("code", .string($0))] } ?? []))
  }
}

extension SubprocessProtocol {
  /// The implementation's answer to `start`: who it is and what it can do.
  struct Ready: Sendable, Hashable {
    /// The implementation's name, version and language, for reports.
    struct Implementation: Sendable, Hashable {
      var name: String
      var version: String
      var language: String
    }

    /// What the implementation can do.
    struct Capabilities: Sendable, Hashable {
      /// Whether it builds its handler from each run message's configuration.
      var configuration: Bool
      /// Whether it reports how it opened a URL (`opened.universalLinksOnly`).
      var universalLinksOnly: Bool
    }

    var version: Int
    var implementation: Implementation
    var capabilities: Capabilities

    /// `NAME VERSION (LANGUAGE, protocol N)`.
    var summary: String {
      "\(implementation.name) \(implementation.version) (\(implementation.language), protocol \(version))"
    }
  }

  /// The implementation's answer to `run`: what it did, or that it skipped the step or failed.
  enum Response: Sendable, Hashable {
    /// What the handler opened (`nil`: nothing) and every code request it made, in order: the `opened` object is the
    /// URL, whether it was opened with universal links only, and optionally the raw options the code passed (keys as
    /// strings), from which the harness decides AF-RE-9.
    case handled(opened: OpenedURL?, authorization: [AuthorizationRequest])
    /// The implementation does not run this step, and why.
    case skipped(reason: String)
    /// The implementation could not run this step, and why.
    case errored(message: String)
  }
}
