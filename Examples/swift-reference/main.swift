// Serves the bundled AppFlipReferenceHandler over the appflip-conformance subprocess protocol, version 2
// (Docs/PROTOCOL.md).
//
//   swift build --product appflip-reference-subprocess
//   swift run appflip-conformance --exec .build/debug/appflip-reference-subprocess
//
// One JSON object per line: `start` is answered with `ready`; each `run` is handled in a task of its own, whose
// handler asks the harness for its code (`codeRequest`, answered by `code`) and then reports what it opened; `stop`
// (or the end of stdin) ends the process. Several links can be in flight at once, as in an app. Logs go to stderr;
// stdout carries only messages.
import AppFlip
import AppFlipReference
import Foundation

/// A message from the harness: `start`, `run`, `code` or `stop` (each has only its own fields).
struct Command: Decodable {
  struct Outcome: Decodable {
    var result: String
    var code: String?
  }

  struct Configuration: Decodable {
    var clientID: String
    var universalLink: String
    var allowedRedirectURIs: [String]

    enum CodingKeys: String, CodingKey {
      case clientID = "clientId"
      case universalLink
      case allowedRedirectURIs = "allowedRedirectUris"
    }
  }

  var cmd: String
  var version: Int?
  var versions: [Int]?
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
  var version = 2
  var implementation = Implementation()
  var capabilities = Capabilities()
}

/// The answer to `run`: what the handler opened (`null` for nothing).
struct Response: Encodable {
  var seq: Int
  var opened: OpenedURL?

  enum CodingKeys: String, CodingKey {
    case seq, opened
  }

  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(seq, forKey: .seq)
    try container.encode(opened, forKey: .opened)  // `null` when nothing was opened: the field is required
  }
}

/// The answer to a `run` the wrapper cannot carry out.
struct Errored: Encodable {
  struct Detail: Encodable { var message: String }
  var seq: Int
  var errored: Detail
}

/// A code request: the handler of step `seq` asks its OAuth server (the harness) for a code.
struct CodeRequest: Encodable {
  var seq: Int
  var codeRequest: AuthorizationRequest
}

/// The handlers waiting for the harness's answer to their code request, by the seq of their step.
final class WaitingHandlers: @unchecked Sendable {
  private let lock = NSLock()
  private var waiting: [Int: CheckedContinuation<AuthorizationOutcome, Never>] = [:]
  private var early: [Int: AuthorizationOutcome] = [:]

  /// Waits for the answer to step `seq`'s code request (which `send` may already have delivered).
  func answer(for seq: Int) async -> AuthorizationOutcome {
    await withCheckedContinuation { continuation in
      let ready: AuthorizationOutcome? = lock.withLock {
        if let outcome = early.removeValue(forKey: seq) { return outcome }
        waiting[seq] = continuation
        return nil
      }
      if let ready { continuation.resume(returning: ready) }
    }
  }

  /// Hands the harness's answer to the handler waiting for it.
  func deliver(_ outcome: AuthorizationOutcome, to seq: Int) {
    let continuation: CheckedContinuation<AuthorizationOutcome, Never>? = lock.withLock {
      guard let continuation = waiting.removeValue(forKey: seq) else {
        early[seq] = outcome
        return nil
      }
      return continuation
    }
    continuation?.resume(returning: outcome)
  }
}

let waiting = WaitingHandlers()

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
  guard let configuration = command.configuration else { throw WrapperError.incomplete("configuration") }
  let handler = AppFlipReferenceHandler(
    configuration: AppFlipConfiguration(
      clientID: configuration.clientID, allowList: RedirectAllowList(configuration.allowedRedirectURIs)))
  // The OAuth server: the harness answers for it, with the vector's scripted outcome.
  let opened = await handler.handle(link) { request in
    send(CodeRequest(seq: seq, codeRequest: request))
    return await waiting.answer(for: seq)
  }
  return Response(seq: seq, opened: opened)
}

let stdoutLock = NSLock()

/// Writes one message as one line, whole: handlers answer from their own tasks.
func send(_ message: some Encodable) {
  let encoder = JSONEncoder()
  encoder.outputFormatting = .withoutEscapingSlashes
  guard var line = try? encoder.encode(message) else {
    log("cannot encode \(message)")
    exit(1)
  }
  line.append(UInt8(ascii: "\n"))
  stdoutLock.withLock { FileHandle.standardOutput.write(line) }
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
    guard (command.versions ?? [command.version ?? 0]).contains(2) else {
      log("speaks protocol version 2; the harness offers \(command.versions ?? [command.version ?? 0])")
      exit(1)
    }
    send(Ready())
  case "run":
    Task.detached {
      do {
        send(try await run(command))
      } catch {
        send(Errored(seq: command.seq ?? 0, errored: .init(message: "\(error)")))
      }
    }
  case "code":
    guard let seq = command.seq, let outcome = command.outcome else {
      log("a code message without seq or outcome")
      exit(1)
    }
    do {
      waiting.deliver(try authorizationOutcome(outcome), to: seq)
    } catch {
      log("\(error)")
      exit(1)
    }
  case "stop":
    exit(0)
  default:
    log("ignoring unknown command \(command.cmd.debugDescription)")
  }
}
