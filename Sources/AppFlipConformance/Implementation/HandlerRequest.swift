import AppFlip

/// What the runner asks an implementation to do for one vector step.
public struct HandlerRequest: Sendable {
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
  /// For an interleaved vector: where the code request waits until every step's link is in flight.
  public var barrier: InterleavingBarrier?
  /// A number unique to this run of this vector: the steps of one run share it, and nothing else does.
  package var run: Int
  /// How many steps the vector has.
  package var stepCount: Int
  /// A token vector's requests to the token endpoint once this step got a code (AF-TK); empty otherwise.
  package var exchanges: [Vector.Exchange] = []
  /// For the association profile: what the step checks about the file; `nil`, that its link opens the app.
  package var association: Vector.AssociationCheck?
  /// The deadline the run keeps for this step while it is sent inline (`ConformanceAdapter.send(_:within:)`); `nil`
  /// outside a run.
  package var watch: (any StepWatch)?

  /// Creates a request.
  package init(
    vectorID: String, step: Int, link: String, outcome: AuthorizationOutcome, configuration: PartnerConfiguration,
    barrier: InterleavingBarrier? = nil, run: Int = 0, stepCount: Int = 1, association: Vector.AssociationCheck? = nil
  ) {
    self.vectorID = vectorID
    self.step = step
    self.link = link
    self.outcome = outcome
    self.configuration = configuration
    self.barrier = barrier
    self.run = run
    self.stepCount = stepCount
    self.association = association
  }
}
