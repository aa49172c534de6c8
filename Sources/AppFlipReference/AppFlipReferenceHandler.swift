import AppFlip

#if canImport(UIKit) && !os(watchOS)
  import UIKit
#endif

/// A correct App Flip handler: validates the incoming link, requests a code, and returns the result to Google.
///
/// It implements every MUST and SHOULD rule of APPFLIP-RULES; a partner may ship it in its app.
public struct AppFlipReferenceHandler: Sendable {
  /// Google's client id and the redirect allow-list this handler answers to.
  public var configuration: AppFlipConfiguration

  /// Creates a handler for this configuration.
  public init(configuration: AppFlipConfiguration) {
    self.configuration = configuration
  }

  /// Decides what to do with an incoming universal link, checking `redirect_uri` before anything else (AF-RU-4).
  public func decide(_ link: String) -> AppFlipDecision {
    let query = URLQuery(link)
    let redirects = query.parameters(named: "redirect_uri")
    guard redirects.count == 1 else {
      return .ignore(reason: redirects.isEmpty ? "redirect_uri is missing" : "redirect_uri is duplicated")
    }
    guard let redirectURI = redirects[0].stringValue, configuration.allowList.contains(redirectURI) else {
      return .ignore(reason: "redirect_uri is not an allowed App Flip URL")
    }

    let states = query.parameters(named: "state")
    let state = states.count == 1 ? states[0].stringValue.flatMap { $0.isEmpty ? nil : $0 } : nil
    func reject(_ reason: String) -> AppFlipDecision {
      .reject(redirectURI: redirectURI, state: state, reason: reason)
    }

    let clientIDs = query.parameters(named: "client_id")
    guard clientIDs.count <= 1 else { return reject("client_id is duplicated") }
    guard let clientID = clientIDs.first?.stringValue, !clientID.isEmpty else {
      return reject("client_id is missing")
    }
    guard Bytes.equal(clientID, configuration.clientID) else { return reject("client_id is not Google's") }
    guard states.count <= 1 else { return reject("state is duplicated") }
    guard let state else { return reject("state is missing") }

    let scopeParameters = query.parameters(named: "scope")
    guard scopeParameters.count <= 1 else { return reject("scope is duplicated") }
    var scopes: [String] = []
    if let scope = scopeParameters.first {
      guard let value = scope.stringValue else { return reject("scope is malformed") }
      scopes = value.utf8.split(separator: UInt8(ascii: " ")).map { String(decoding: $0, as: UTF8.self) }
    }
    return .authorize(
      AuthorizationRequest(clientID: clientID, redirectURI: redirectURI, scopes: scopes),
      state: state
    )
  }

  /// The reply for an authorization outcome (AF-RE-2, AF-RE-4); `state` goes back in error replies too (AF-RE-5).
  public func reply(to outcome: AuthorizationOutcome, state: String) -> AppFlipReply {
    switch outcome {
    case .granted(let code):
      return .code(code, state: state)
    default:
      return .error(outcome.errorCode ?? .cancelled, state: state)
    }
  }

  /// Handles a link end to end: decides, asks `authorize` for a code when the request is valid, and returns the URL to open.
  ///
  /// A thrown error from `authorize` counts as a failed connection and is returned as `cancelled`.
  public func handle(
    _ link: String,
    authorize: (AuthorizationRequest) async throws -> AuthorizationOutcome
  ) async -> OpenedURL? {
    switch decide(link) {
    case .ignore:
      return nil
    case .reject(let redirectURI, let state, let reason):
      let reply = AppFlipReply.error(.invalidRequest, description: "Invalid request: \(reason)", state: state)
      return OpenedURL(url: reply.url(for: redirectURI), universalLinksOnly: true)
    case .authorize(let request, let state):
      let outcome = (try? await authorize(request)) ?? .offline
      return OpenedURL(url: reply(to: outcome, state: state).url(for: request.redirectURI), universalLinksOnly: true)
    }
  }
}

#if canImport(UIKit) && !os(watchOS)
  extension OpenedURL {
    /// Opens this URL with universal links only, as App Flip requires (AF-RE-9).
    @MainActor
    public func open() {
      guard let url = URL(string: url) else { return }
      UIApplication.shared.open(url, options: [.universalLinksOnly: universalLinksOnly ?? true])
    }
  }
#endif
