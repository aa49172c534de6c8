import AppFlip
import AppFlipConformance

/// The replaceable steps of the partner-style handler, each set to its correct version; a mutant replaces exactly one.
public struct PartnerSteps: Sendable {
  /// Splits the link into decoded parameters; may throw to stand in for a crash.
  public var parse: @Sendable (String) throws -> [LinkParameter] = QueryParsing.splitByHand
  /// Reads one App Flip parameter out of the link's parameters.
  public var read: @Sendable ([LinkParameter], String) -> LinkValue = ParameterReading.exactlyOne
  /// Whether a `redirect_uri` is one the handler answers to.
  public var allowsRedirect: @Sendable (String, RedirectAllowList) -> Bool = RedirectChecks.exact
  /// The URL the handler answers at (and binds the code to), given the validated `redirect_uri`.
  public var returnURL: @Sendable (String) -> String = ReturnURLs.incoming
  /// Why `client_id` makes the request invalid, or `nil` when it is the configured one.
  public var clientIDProblem: @Sendable (LinkValue, String) -> String? = ClientIDChecks.exact
  /// The state to carry through the flow, or `nil` when the request must be rejected for it.
  public var requireState: @Sendable (LinkValue) -> String? = StateChecks.required
  /// Asks the partner's OAuth server for a code; also given the incoming link.
  public var authorize: @Sendable (AuthorizationRequest, String, Authorizer) async -> AuthorizationOutcome =
    Authorizing.requestCode
  /// The `error` value an unsuccessful outcome is answered with.
  public var errorCode: @Sendable (AuthorizationOutcome) -> String = ErrorMapping.appFlip
  /// The reply's parameters, in order, for a result of this request.
  public var reply: @Sendable (PartnerResult, LinkRequest) -> ReplyParameters = ReplyBuilding.standard
  /// Writes the reply parameters after the base URL.
  public var encode: @Sendable (ReplyParameters, String) -> String = ReplyEncoding.percentEncoded
  /// Opens the finished URL.
  public var open: @Sendable (String) -> OpenedURL = Opening.universalLinksOnly

  /// The correct steps.
  public init() {}
}
