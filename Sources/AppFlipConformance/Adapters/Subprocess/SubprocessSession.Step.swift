import AppFlip
import Dispatch

extension SubprocessSession {
  /// A step sent to the implementation and not yet answered. A class, so that the session's bookkeeping moves one
  /// reference instead of copying the request's strings; only the session's queue touches it.
  final class Step {
    /// The step's request number.
    let seq: Int
    /// What the runner asked for.
    let request: HandlerRequest
    /// When the step has had its time, start included.
    let deadline: DispatchTime
    /// Where the implementation's stderr stood when the step was sent.
    let mark: Int
    /// Set when the runner gives up on the step.
    let cancellation: SubprocessCancellation
    /// Where the step's result goes.
    let continuation: CheckedContinuation<Observation, any Error>
    /// The code requests the handler made for this step (version 2), in order.
    var authorization: [AuthorizationRequest] = []
    /// Whether a code request waits for the harness's answer (version 2).
    var codePending = false
    /// The caller's limit, when it ends the step before the session's own budget: the step then times out as the
    /// runner's deadline would have it.
    var limit: StepLimit?

    init(
      seq: Int, request: HandlerRequest, deadline: DispatchTime, mark: Int, cancellation: SubprocessCancellation,
      continuation: CheckedContinuation<Observation, any Error>
    ) {
      self.seq = seq
      self.request = request
      self.deadline = deadline
      self.mark = mark
      self.cancellation = cancellation
      self.continuation = continuation
    }

    /// `request 12 (vector "…", step 0)`, for messages.
    var what: String { Self.what(seq: seq, vectorID: request.vectorID, step: request.step) }

    /// `request 12 (vector "…", step 0)`.
    static func what(seq: Int, vectorID: String, step: Int) -> String {
      "request \(seq) (vector \"\(vectorID)\", step \(step))"
    }
  }

  /// A deadline the caller sets for one step, start included, and its length for messages.
  struct StepLimit {
    /// When the step must have ended.
    var deadline: DispatchTime
    /// Seconds from the call to the deadline.
    var seconds: Double

    /// A limit `seconds` from now.
    init(seconds: Double) {
      self.seconds = seconds
      let nanoseconds = min(max(0, seconds.isNaN ? 0 : seconds) * 1e9, Double(UInt64.max / 4))
      deadline = .now() + .nanoseconds(Int(nanoseconds))
    }
  }

  /// A step already answered, remembered so that a second answer to it is blamed on it, not on the step in flight.
  struct Answered {
    /// The step's request number.
    var seq: Int
    /// Its vector.
    var vectorID: String
    /// Its index in the vector.
    var step: Int
    /// Which run of the vector it was sent for (`HandlerRequest.run`).
    var run: Int
    /// Where the implementation's stderr stood when the step was sent.
    var mark: Int

    /// What the step was, for messages (written only when one needs it).
    var what: String { Step.what(seq: seq, vectorID: vectorID, step: step) }
  }
}
