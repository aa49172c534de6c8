import AppFlip
import Dispatch

extension SubprocessSession {
  /// A step sent to the implementation and not yet answered.
  struct Step {
    /// The step's request number.
    var seq: Int
    /// What the runner asked for.
    var request: HandlerRequest
    /// When the step has had its time, start included.
    var deadline: DispatchTime
    /// Where the implementation's stderr stood when the step was sent.
    var mark: Int
    /// Set when the runner gives up on the step.
    var cancellation: SubprocessCancellation
    /// Where the step's result goes.
    var continuation: CheckedContinuation<Observation, any Error>
    /// The code requests the handler made for this step (version 2), in order.
    var authorization: [AuthorizationRequest] = []
    /// Whether a code request waits for the harness's answer (version 2).
    var codePending = false

    /// `request 12 (vector "…", step 0)`, for messages.
    var what: String { "request \(seq) (vector \"\(request.vectorID)\", step \(request.step))" }
  }
}
