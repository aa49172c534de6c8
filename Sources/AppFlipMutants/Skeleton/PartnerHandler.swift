import AppFlip
import AppFlipConformance

/// A partner-style App Flip handler built from `PartnerSteps`: with the correct steps it passes every vector.
///
/// The flow reads like a partner's own code: parse the query, validate `redirect_uri` first, then
/// `client_id` and `state`, ask the server for a code, and open `redirect_uri` with the result.
public struct PartnerHandler: AppFlipHandler {
  /// Google's client id and the redirect allow-list.
  public var configuration: PartnerConfiguration
  /// The steps the flow is made of.
  public var steps: PartnerSteps

  /// Creates a handler; the steps default to the correct ones.
  public init(configuration: PartnerConfiguration, steps: PartnerSteps = PartnerSteps()) {
    self.configuration = configuration
    self.steps = steps
  }

  /// Handles one incoming link end to end.
  public func handle(_ link: String, authorizer: Authorizer) async throws -> OpenedURL? {
    let request = try read(link)
    return await respond(to: decide(request), request: request, link: link, authorizer: authorizer)
  }

  /// Parses the link and reads its App Flip values.
  public func read(_ link: String) throws -> LinkRequest {
    LinkRequest(parameters: try steps.parse(link), read: steps.read)
  }

  /// Validates `redirect_uri` before anything else, then `client_id`, `state` and `scope`.
  public func decide(_ request: LinkRequest) -> PartnerDecision {
    guard let redirectURI = request.redirectURI.text, steps.allowsRedirect(redirectURI, configuration.allowList) else {
      return .ignore
    }
    let replyTo = steps.returnURL(redirectURI)
    let incomingState = request.state.text
    if let problem = steps.clientIDProblem(request.clientID, configuration.clientID) {
      return .reject(replyTo: replyTo, state: incomingState, reason: problem)
    }
    guard let state = steps.requireState(request.state) else {
      return .reject(replyTo: replyTo, state: incomingState, reason: "state is missing or invalid")
    }
    guard let scopes = request.scopes else {
      return .reject(replyTo: replyTo, state: incomingState, reason: "scope is duplicated or malformed")
    }
    let codeRequest = AuthorizationRequest(
      clientID: request.clientID.text ?? configuration.clientID, redirectURI: replyTo, scopes: scopes)
    return .authorize(codeRequest, state: state, replyTo: replyTo)
  }

  /// Carries out a decision: asks for a code when it authorizes, and opens the reply unless it ignores.
  public func respond(
    to decision: PartnerDecision, request: LinkRequest, link: String, authorizer: Authorizer
  ) async -> OpenedURL? {
    switch decision {
    case .ignore:
      return nil
    case .reject(let replyTo, let state, let reason):
      return open(
        .error("invalid_request", description: "Invalid request: \(reason)", state: state), request, at: replyTo)
    case .authorize(let codeRequest, let state, let replyTo):
      let outcome = await steps.authorize(codeRequest, link, authorizer)
      return open(result(for: outcome, state: state), request, at: replyTo)
    }
  }

  /// The result an outcome is answered with.
  public func result(for outcome: AuthorizationOutcome, state: String) -> PartnerResult {
    if case .granted(let code) = outcome { return .code(code, state: state) }
    return .error(steps.errorCode(outcome), description: nil, state: state)
  }

  /// Writes a result after `base` and opens it.
  public func open(_ result: PartnerResult, _ request: LinkRequest, at base: String) -> OpenedURL {
    steps.open(steps.encode(steps.reply(result, request), base))
  }
}

/// The correct `PartnerHandler` run through a broken flow (`Mutant.flow`): the flow decides when to read, decide, ask
/// for a code and answer.
public struct FlowHandler: AppFlipHandler {
  /// A flow: handles one link with the otherwise correct handler's steps.
  public typealias Flow = @Sendable (PartnerHandler, String, Authorizer) async throws -> OpenedURL?

  /// The otherwise correct handler.
  public var base: PartnerHandler
  /// The broken flow.
  public var flow: Flow

  /// Hands the link to the flow.
  public func handle(_ link: String, authorizer: Authorizer) async throws -> OpenedURL? {
    try await flow(base, link, authorizer)
  }
}

/// What a partner handler decides about a link before it asks for a code.
public enum PartnerDecision: Sendable, Hashable {
  /// Open nothing: `redirect_uri` is missing, duplicated or not allowed.
  case ignore
  /// Answer `invalid_request` at `replyTo`, with the incoming state when there was one.
  case reject(replyTo: String, state: String?, reason: String)
  /// Ask for a code with this request, then answer at `replyTo` with `state`.
  case authorize(AuthorizationRequest, state: String, replyTo: String)
}

/// The result a partner handler returns to Google, before it is written into a URL.
public enum PartnerResult: Sendable, Hashable {
  /// A granted code and the state to return with it.
  case code(String, state: String)
  /// An `error` value, an optional `error_description`, and the state to return, if any.
  case error(String, description: String?, state: String?)
}

/// A reply's parameters in the order they are written, still unencoded.
public typealias ReplyParameters = [(name: String, value: String)]

/// Stands in for a crash (a force unwrap of a value that did not decode): a real crash would end the test process.
public struct PartnerCrash: Error, Sendable, CustomStringConvertible {
  /// What the handler force-unwrapped.
  public var what: String

  /// A one-line account of the crash.
  public var description: String { "crashed: force-unwrapped \(what), which was nil" }
}
