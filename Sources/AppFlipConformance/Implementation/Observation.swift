import AppFlip

/// What an implementation did with one link: what it opened, and the code requests it made.
public struct Observation: Sendable, Hashable {
  /// The URL opened, or `nil` when it opened nothing.
  public var opened: OpenedURL?
  /// Every authorization-code request, in order; `nil` when the adapter cannot see them (an HTTP endpoint).
  public var authorizationRequests: [AuthorizationRequest]?
  /// Anything the implementation wrote to stderr, for the report.
  public var diagnostics: String
  /// Why nothing can be concluded from a refusal that would otherwise pass (an endpoint's own page answered and no
  /// signed-in request was shown to get a code, AF-EP-5); `nil` when the observation proves what it shows.
  package var inconclusive: String? = nil
  /// What the adapter itself found wrong with how the answer was sent, judged beside the reply: a raw CR, LF or NUL in
  /// an endpoint's headers, or several `Location` headers (AF-EP-6).
  package var findings: [Finding] = []
  /// What the token endpoint answered to each request made with the code this step got (AF-TK), secrets redacted.
  package var exchanges: [TokenAnswer] = []
  /// For the association profile: the file as read and Apple's decision for the link (AF-UL).
  package var association: AssociationObservation? = nil

  /// Creates an observation.
  public init(opened: OpenedURL?, authorizationRequests: [AuthorizationRequest]?, diagnostics: String = "") {
    self.opened = opened
    self.authorizationRequests = authorizationRequests
    self.diagnostics = diagnostics
  }
}
