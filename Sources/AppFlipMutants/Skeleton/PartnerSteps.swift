import AppFlip
import AppFlipConformance
import Foundation

/// The replaceable steps of the partner-style handler, each set to its correct version; a mutant replaces exactly one.
public struct PartnerSteps: Sendable {
  /// Splits the link into decoded parameters; may throw to stand in for a crash.
  public var parse: @Sendable (String) throws -> [LinkParameter] = QueryParsing.splitByHand
  /// Reads one App Flip parameter out of the link's parameters; correct: a parameter given more than once is
  /// `.duplicated` (AF-IN-2).
  public var read: @Sendable ([LinkParameter], String) -> LinkValue = { parameters, name in
    let occurrences = parameters.filter { $0.name == name }
    guard occurrences.count <= 1 else { return .duplicated }
    return LinkValue(occurrence: occurrences.first.map(\.value))
  }
  /// Whether a `redirect_uri` is one the handler answers to.
  public var allowsRedirect: @Sendable (String, RedirectAllowList) -> Bool = exactRedirect
  /// The URL the handler answers at (and binds the code to), given the validated `redirect_uri`; correct: the very
  /// `redirect_uri` that arrived (AF-RU-3).
  public var returnURL: @Sendable (String) -> String = { $0 }
  /// Why `client_id` makes the request invalid, or `nil` when it is the configured one; correct: present exactly once
  /// and byte-identical to the configured id (AF-IN-1, AF-IN-5).
  public var clientIDProblem: @Sendable (LinkValue, String) -> String? = { clientID, expected in
    PartnerSteps.clientIDProblem(clientID) { $0.utf8.elementsEqual(expected.utf8) }
  }
  /// The state to carry through the flow, or `nil` when the request must be rejected for it; correct: exactly one
  /// non-empty, well-formed state (AF-IN-1).
  public var requireState: @Sendable (LinkValue) -> String? = { $0.text }
  /// Asks the partner's OAuth server for a code, also given the incoming link; correct: one fresh request per link, for
  /// Google's client id, the validated `redirect_uri` and the incoming scopes.
  public var authorize: @Sendable (AuthorizationRequest, String, Authorizer) async -> AuthorizationOutcome = {
    request, _, authorizer in await authorizer.requestCode(request)
  }
  /// The `error` value an unsuccessful outcome is answered with.
  public var errorCode: @Sendable (AuthorizationOutcome) -> String = errorCode
  /// The reply's parameters, in order, for a result of this request.
  public var reply: @Sendable (PartnerResult, LinkRequest) -> ReplyParameters = reply
  /// Writes the reply parameters after the base URL.
  public var encode: @Sendable (ReplyParameters, String) -> String = encoded
  /// Opens the finished URL; correct: with `UIApplication.OpenExternalURLOptionsKey.universalLinksOnly` (AF-RE-9).
  public var open: @Sendable (String) -> OpenedURL = { OpenedURL(url: $0, universalLinksOnly: true) }

  /// The correct steps.
  public init() {}

  /// Correct: byte-identical to one allowed URL (AF-RU-1, AF-RU-2).
  @Sendable static func exactRedirect(_ candidate: String, _ allowList: RedirectAllowList) -> Bool {
    allowList.urls.contains { $0.utf8.elementsEqual(candidate.utf8) }
  }

  /// Rejects a missing, duplicated or malformed `client_id`, and one `matches` refuses.
  static func clientIDProblem(_ clientID: LinkValue, matches: (String) -> Bool) -> String? {
    switch clientID {
    case .missing: "client_id is missing"
    case .duplicated: "client_id is duplicated"
    case .malformed: "client_id is malformed"
    case .value(let value): matches(value) ? nil : "client_id is not registered"
    }
  }

  /// Correct: sign-in failed, offline, timed out → `cancelled`; disabled → `unrecoverable`; denied → `access_denied`
  /// (AF-RE-4, as `AuthorizationOutcome.errorCode` maps them).
  @Sendable static func errorCode(_ outcome: AuthorizationOutcome) -> String {
    (outcome.errorCode ?? .cancelled).rawValue
  }

  /// Correct: `code` and `state`, or `error`, an optional `error_description` and the state when there was one.
  @Sendable static func reply(_ result: PartnerResult, _ request: LinkRequest) -> ReplyParameters {
    switch result {
    case .code(let code, let state):
      return [("code", code), ("state", state)]
    case .error(let error, let description, let state):
      return [("error", error)] + (description.map { [("error_description", $0)] } ?? [])
        + (state.map { [("state", $0)] } ?? [])
    }
  }

  /// The RFC 3986 unreserved characters, the only ones left literal by the correct encoder.
  static let unreserved = CharacterSet(
    charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")

  /// Correct: every byte but the unreserved ones percent-encoded, so RFC 3986 and form decoders agree (AF-RE-6).
  @Sendable static func encoded(_ parameters: ReplyParameters, _ base: String) -> String {
    func encode(_ string: String) -> String {
      string.addingPercentEncoding(withAllowedCharacters: unreserved) ?? string
    }
    return base + "?" + parameters.map { "\(encode($0.name))=\(encode($0.value))" }.joined(separator: "&")
  }
}
