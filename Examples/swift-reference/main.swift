// Serves the bundled AppFlipReferenceHandler over the appflip-conformance subprocess protocol (Docs/PROTOCOL.md).
//
//   swift build --product appflip-reference-subprocess
//   swift run appflip-conformance --exec .build/debug/appflip-reference-subprocess
//
// One JSON object per line: `start` is answered with `ready`, each `run` with what the handler opened and the code
// requests it made, `stop` (or the end of stdin) ends the process. Logs go to stderr; stdout carries only messages.
import AppFlip
import AppFlipReference
import Foundation

/// A message from the harness: `start`, `run` or `stop` (the fields of `run` are absent from the others).
struct Command: Decodable {
  struct Outcome: Decodable {
    var result: String
    var code: String?
  }

  struct Configuration: Decodable {
    var clientId: String
    var universalLink: String
    var allowedRedirectUris: [String]
  }

  var cmd: String
  var version: Int?
  var seq: Int?
  var vector: String?
  var step: Int?
  var link: String?
  var outcome: Outcome?
  var configuration: Configuration?
}

/// The `ready` answer to `start`.
struct Ready: Encodable {
  struct Implementation: Encodable {
    var name = "appflip-reference-subprocess"
    var version = "1.0.0"
    var language = "swift"
  }

  struct Capabilities: Encodable {
    var configuration = true
    var universalLinksOnly = true
  }

  var ready = true
  var version = 1
  var implementation = Implementation()
  var capabilities = Capabilities()
}

/// The answer to `run`: what the handler opened (`null` for nothing) and the code requests it made.
struct Response: Encodable {
  var seq: Int
  var opened: OpenedURL?
  var authorization: [AuthorizationRequest]

  enum CodingKeys: String, CodingKey {
    case seq, opened, authorization
  }

  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(seq, forKey: .seq)
    try container.encode(opened, forKey: .opened)  // `null` when nothing was opened: the field is required
    try container.encode(authorization, forKey: .authorization)
  }
}

/// The answer to a `run` the wrapper cannot carry out.
struct Errored: Encodable {
  struct Detail: Encodable { var message: String }
  var seq: Int
  var errored: Detail
}

/// Records the code requests the handler makes and answers them with the scripted outcome.
actor ScriptedServer {
  let outcome: AuthorizationOutcome
  var requests: [AuthorizationRequest] = []

  init(outcome: AuthorizationOutcome) {
    self.outcome = outcome
  }

  func requestCode(_ request: AuthorizationRequest) -> AuthorizationOutcome {
    requests.append(request)
    return outcome
  }
}

enum WrapperError: Error, CustomStringConvertible {
  case incomplete(String)
  case unknownOutcome(String)

  var description: String {
    switch self {
    case .incomplete(let field): "the run message has no \"\(field)\""
    case .unknownOutcome(let result): "unknown outcome result \"\(result)\""
    }
  }
}

func authorizationOutcome(_ outcome: Command.Outcome) throws -> AuthorizationOutcome {
  switch outcome.result {
  case "granted": .granted(code: outcome.code ?? "")
  case "sign-in-failed": .signInFailed
  case "offline": .offline
  case "timed-out": .timedOut
  case "account-disabled": .accountDisabled
  case "consent-denied": .consentDenied
  default: throw WrapperError.unknownOutcome(outcome.result)
  }
}

func run(_ command: Command) async throws -> Response {
  guard let seq = command.seq else { throw WrapperError.incomplete("seq") }
  guard let link = command.link else { throw WrapperError.incomplete("link") }
  guard let outcome = command.outcome else { throw WrapperError.incomplete("outcome") }
  guard let configuration = command.configuration else { throw WrapperError.incomplete("configuration") }
  let handler = AppFlipReferenceHandler(
    configuration: AppFlipConfiguration(
      clientID: configuration.clientId, allowList: RedirectAllowList(configuration.allowedRedirectUris)))
  let server = ScriptedServer(outcome: try authorizationOutcome(outcome))
  let opened = await handler.handle(link) { await server.requestCode($0) }
  return Response(seq: seq, opened: opened, authorization: await server.requests)
}

/// Writes one message as one line with a single unbuffered write, so it is never held back in a buffer.
func send(_ message: some Encodable) throws {
  let encoder = JSONEncoder()
  encoder.outputFormatting = .withoutEscapingSlashes
  var line = try encoder.encode(message)
  line.append(UInt8(ascii: "\n"))
  FileHandle.standardOutput.write(line)
}

func log(_ text: String) {
  FileHandle.standardError.write(Data("appflip-reference-subprocess: \(text)\n".utf8))
}

while let line = readLine(strippingNewline: true) {
  if line.allSatisfy(\.isWhitespace) { continue }
  let command: Command
  do {
    command = try JSONDecoder().decode(Command.self, from: Data(line.utf8))
  } catch {
    log("cannot read \(line.debugDescription): \(error)")
    exit(1)
  }
  switch command.cmd {
  case "start":
    guard command.version == 1 else {
      log("speaks protocol version 1; the harness asked for \(command.version.map(String.init) ?? "none")")
      exit(1)
    }
    try send(Ready())
  case "run":
    do {
      try send(try await run(command))
    } catch {
      try send(Errored(seq: command.seq ?? 0, errored: .init(message: "\(error)")))
    }
  case "stop":
    exit(0)
  default:
    log("ignoring unknown command \(command.cmd.debugDescription)")
  }
}
