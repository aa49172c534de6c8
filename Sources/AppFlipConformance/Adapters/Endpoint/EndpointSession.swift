/// What an endpoint run knows of the test user's session, shared by the run's adapters (APPFLIP-RULES AF-EP-5,
/// AF-EP-7): whether a signed-in request was shown to get a code, and whether the session, or the server, has gone
/// since.
///
/// A session only ends, it never comes back: so a refusal followed by a signed-in request that still gets a code (the
/// canary, the preflight's request again) was made in a working session, and once the canary gets none, nothing after
/// it can be shown to be a refusal.
package final class EndpointSession: Sendable {
  /// What is known.
  enum State: Sendable, Hashable {
    /// No preflight ran (`--no-preflight`): a refusal answered by the server's own page proves nothing.
    case unproven
    /// No App Flip URL got a code, for a reason of the server's own (AF-EP-1): a refusal proves nothing.
    case refused(String)
    /// A signed-in request for this redirect URI got a code: each refusal is re-checked with that request.
    case proven(redirectURI: String)
    /// After the refusal of `vector`, the canary got no code: the session ended there, for `why`.
    case lost(vector: String, why: String)
  }

  /// After this many requests in a row time out, no more are sent: the rest is inconclusive at once.
  static let timeoutLimit = 3

  private let state = Locked((state: State.unproven, timedOut: [String](), stopped: 0))

  /// Creates a session nothing is known of yet.
  package init() {}

  /// What is known now.
  var current: State { state.withLock { $0.state } }

  /// Records what the preflight found.
  func set(_ new: State) { state.withLock { $0.state = new } }

  /// Records that the canary after `vector`'s refusal got no code, unless the session was already lost.
  func lose(at vector: String, why: String) {
    state.withLock {
      if case .lost = $0.state { return }
      $0.state = .lost(vector: vector, why: why)
    }
  }

  /// Records that a request got an answer, which ends a run of timeouts.
  func answered() { state.withLock { $0.timedOut = [] } }

  /// Records that a request for `vector` timed out.
  func timedOut(_ vector: String) {
    state.withLock { if !$0.timedOut.contains(vector) { $0.timedOut.append(vector) } }
  }

  /// Why no request is sent any more: the session ended, or the endpoint did not answer `timeoutLimit` requests in a
  /// row within `seconds`; counts the vector as not sent. `nil` while requests go out.
  func stop(timeout seconds: Double) -> String? {
    state.withLock { known in
      let why: String
      if case .lost(let vector, let reason) = known.state {
        why =
          "not sent: the test user's session ended at \(Quoted.string(vector)) (after its refusal, the preflight's"
          + " request got no code: \(reason)), so no answer from here on can be shown to be a refusal; run again"
          + " with a fresh session (--login-command, --cookie-file), or one that lasts the run"
      } else if known.timedOut.count >= Self.timeoutLimit {
        let vectors = known.timedOut.suffix(Self.timeoutLimit).map { Quoted.string($0) }.joined(separator: ", ")
        why =
          "not sent: the endpoint did not answer \(Self.timeoutLimit) requests in a row within \(seconds) seconds"
          + " (\(vectors)), so the run stops sending and ends in time; check the server, or raise --timeout"
      } else {
        return nil
      }
      known.stopped += 1
      return why
    }
  }

  /// One line for the console once the run is over: where and why the session ended, or the requests stopped, and
  /// how many vectors were not sent; `nil` when neither happened.
  var summary: String? {
    state.withLock { known in
      if case .lost(let vector, let reason) = known.state {
        let after = known.stopped == 0 ? "" : " and the \(Count.of(known.stopped, "vector")) after it (not sent)"
        return "the test user's session ended at \(Quoted.string(vector)): after its refusal, the preflight's request"
          + " got no code (\(reason)); that vector\(after) are inconclusive; run again with a fresh session, or one"
          + " that lasts the run"
      }
      guard known.timedOut.count >= Self.timeoutLimit else { return nil }
      return "the endpoint did not answer \(Self.timeoutLimit) requests in a row (the last"
        + " \(Quoted.string(known.timedOut.last ?? ""))); the \(Count.of(known.stopped, "vector")) after them were not"
        + " sent and are inconclusive"
    }
  }
}
