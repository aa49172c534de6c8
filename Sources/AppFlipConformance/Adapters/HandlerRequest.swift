import AppFlip

/// What the runner asks an implementation to do for one vector step.
public struct HandlerRequest: Sendable, Hashable {
  /// The vector's id.
  public var vectorID: String
  /// The step's index within the vector, from 0.
  public var step: Int
  /// The incoming universal link, byte for byte.
  public var link: String
  /// What the scripted authorization service answers if the handler asks for a code.
  public var outcome: AuthorizationOutcome
  /// The partner configuration the vector was rendered with.
  public var configuration: PartnerConfiguration

  /// Creates a request.
  public init(
    vectorID: String, step: Int, link: String, outcome: AuthorizationOutcome, configuration: PartnerConfiguration
  ) {
    self.vectorID = vectorID
    self.step = step
    self.link = link
    self.outcome = outcome
    self.configuration = configuration
  }
}
