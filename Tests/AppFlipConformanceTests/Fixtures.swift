import AppFlip
import Foundation

@testable import AppFlipConformance

/// Small builders shared by the harness tests.
enum Fixtures {
  static let redirect = "https://oauth-redirect.googleusercontent.com/a/com.google.OPA"

  /// A vector file with the given vectors (JSON texts).
  static func file(_ vectors: [String], area: String = "t") -> Data {
    Data(
      """
      {"schemaVersion": 1, "area": "\(area)", "description": "test", "vectors": [\(vectors.joined(separator: ","))]}
      """.utf8)
  }

  /// A valid accepted vector; `extra` is spliced into the vector object, `expect` replaces the expectation.
  static func accepted(id: String = "t/ok", extra: String = "", expect: String? = nil) -> String {
    """
    {"id": "\(id)", "description": "d", "spec": ["s"], "rules": ["AF-RE-2"], "level": "must", \(extra)
     "incoming": {"params": [["client_id", "{client_id}"], ["scope", "devices"], ["state", "s1"], ["redirect_uri", "\(redirect)"]]},
     "outcome": {"result": "granted", "code": "c1"},
     "expect": \(expect ?? """
      {"verdict": "accepted", "authorization": {"clientId": "{client_id}", "redirectUri": "\(redirect)", "scopes": ["devices"]},
       "reply": {"base": "\(redirect)", "code": "c1", "state": "s1"}}
      """)}
    """
  }

  /// A valid vector of two identical accepted steps sent to one handler.
  static func twoSteps(id: String) -> String {
    let step = """
      {"incoming": {"params": [["client_id", "{client_id}"], ["state", "s1"], ["redirect_uri", "\(redirect)"]]},
       "outcome": {"result": "granted", "code": "c1"},
       "expect": {"verdict": "accepted", "authorization": {"clientId": "{client_id}", "redirectUri": "\(redirect)"},
                  "reply": {"base": "\(redirect)", "code": "c1", "state": "s1"}}}
      """
    return """
      {"id": "\(id)", "description": "d", "spec": ["s"], "rules": ["AF-RE-10"], "level": "must",
       "steps": [\(step), \(step)]}
      """
  }

  /// A valid vector of two accepted steps sent interleaved: both links in flight at once on one handler.
  static func interleaved(id: String) -> String {
    let step = { (state: String) in
      """
      {"incoming": {"params": [["client_id", "{client_id}"], ["state", "\(state)"], ["redirect_uri", "\(redirect)"]]},
       "outcome": {"result": "granted", "code": "c-\(state)"},
       "expect": {"verdict": "accepted", "authorization": {"clientId": "{client_id}", "redirectUri": "\(redirect)"},
                  "reply": {"base": "\(redirect)", "code": "c-\(state)", "state": "\(state)"}}}
      """
    }
    return """
      {"id": "\(id)", "description": "d", "spec": ["s"], "rules": ["AF-RE-10"], "level": "must", "interleaved": true,
       "steps": [\(step("s1")), \(step("s2"))]}
      """
  }

  static func catalog(_ vectors: [String]) -> VectorCatalog {
    VectorLoader.decode(file(vectors), displayPath: "mine/t.json")
  }

  /// An expectation for a success reply at `redirect`.
  static func successExpectation(state: String = "s1", code: String = "c1") -> RenderedExpectation {
    RenderedExpectation(
      Vector.Expectation(
        verdict: .accepted,
        authorization: Vector.ExpectedAuthorization(clientID: "cid", redirectURI: redirect, scopes: ["devices"]),
        reply: Vector.ExpectedReply(base: redirect, code: code, state: state)))
  }

  static let request = AuthorizationRequest(clientID: "cid", redirectURI: redirect, scopes: ["devices"])

  static func observation(_ url: String?, universalLinksOnly: Bool? = true, requests: [AuthorizationRequest]? = nil)
    -> Observation
  {
    Observation(
      opened: url.map { OpenedURL(url: $0, universalLinksOnly: universalLinksOnly) },
      authorizationRequests: requests ?? [request])
  }
}

/// A handler built from a closure, for tests.
struct ClosureHandler: AppFlipHandler {
  var body: @Sendable (String, Authorizer) async throws -> OpenedURL?

  func handle(_ link: String, authorizer: Authorizer) async throws -> OpenedURL? {
    try await body(link, authorizer)
  }
}

/// Runs blocking work (a child process run to its end, a blocking read) on a Dispatch thread: on one of the test
/// process's few cooperative threads it would starve the run engine's watchdog and the timing-bound tests beside it.
func offCooperativePool<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
  try await withCheckedThrowingContinuation { continuation in
    DispatchQueue.global().async { continuation.resume(with: Result { try work() }) }
  }
}

extension RenderedExpectation {
  /// An expectation whose values are already exact (no placeholders), taken as written.
  init(_ exact: Vector.Expectation) {
    self.init(
      verdict: exact.verdict, authorization: exact.authorization,
      reply: exact.reply.map {
        RenderedReply(base: $0.base, code: $0.code, stateBytes: $0.stateBytes, error: $0.error)
      },
      association: exact.association)
  }
}
