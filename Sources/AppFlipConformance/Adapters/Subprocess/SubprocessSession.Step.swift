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
    /// Where the step's result goes; nil while the caller reads for it itself (`handle`'s direct path).
    var continuation: CheckedContinuation<Observation, any Error>?
    /// The code requests the handler made for this step (version 2), in order.
    var authorization: [AuthorizationRequest] = []
    /// Whether a code request waits for the harness's answer (version 2).
    var codePending = false

    /// `request 12 (vector "…", step 0)`, for messages.
    var what: String { Self.what(seq: seq, request: request) }

    /// `request 12 (vector "…", step 0)`.
    static func what(seq: Int, request: HandlerRequest) -> String {
      "request \(seq) (vector \"\(request.vectorID)\", step \(request.step))"
    }
  }

  /// A step already answered, remembered so that a second answer to it is blamed on it, not on the step in flight.
  struct Answered {
    /// What the step was, for messages.
    var what: String
    /// Its vector.
    var vectorID: String
    /// Where the implementation's stderr stood when the step was sent.
    var mark: Int
  }
}
