import AppFlip
import Foundation

extension SubprocessSession {
  /// A fault no answer can follow: kills the child, which starts again for the next step, and makes `culprit` an error
  /// saying `problem` (or `culpritError`), and every other step in flight one saying it was in flight too.
  func fault(_ culprit: Step, _ problem: String, culpritError: (any Error)? = nil) {
    let child = self.child
    child?.kill()
    self.child = nil
    restartPending = false
    let steps = inFlight.values.sorted { $0.seq < $1.seq }
    // Links in flight at once share the child: what it wrote since the first of them was sent belongs to each, whichever
    // link the runner happened to send first.
    let mark = steps.first?.mark ?? culprit.mark
    if let barrier = culprit.request.barrier {
      // Links of this interleaved vector that the runner has not sent yet fail with it, not on a fresh start.
      if brokenBarriers.count >= 8 { brokenBarriers.removeFirst() }
      brokenBarriers.append(
        (barrier, SubprocessError(message: problem, diagnostics: child?.stderr(since: mark) ?? "")))
    }
    for step in steps {
      if step.seq == culprit.seq, let culpritError {
        finish(step, .failure(culpritError))
        continue
      }
      let clause = step.seq == culprit.seq ? problem : "\(problem), while \(step.what) was in flight too"
      finish(
        step,
        .failure(
          SubprocessError(
            message: clause + "; it was stopped and is started again for the next step",
            diagnostics: child?.stderr(since: mark) ?? "")))
    }
  }

  /// A child's fault as a clause: "exited with status 1 before it answered request 3 (…)".
  func describe(_ error: any Error, answering target: String) -> String {
    switch error as? SubprocessChild.Fault {
    case .exited(let how, let partial)?:
      return partial.isEmpty
        ? "\(how) before it answered \(target)"
        : "\(how) in the middle of its answer to \(target): \(Self.quoted(partial))"
    case .timedOut?:
      let seconds = target == "start" ? max(budget, Self.startBudget) : budget
      return "did not answer \(target) within \((seconds * 100).rounded() / 100) seconds"
    case .cancelled?:
      return "had not answered \(target) when the step's time ran out"
    case .lineTooLong?:
      return "wrote a line longer than \(SubprocessChild.lineLimit >> 20) MB in its answer to \(target)"
    case .closedStdin?:
      return "closed its standard input while it ran on, so \(target) could not reach it; an adapter reads requests "
        + "from stdin until the harness closes it (Docs/PROTOCOL.md)"
    case nil:
      return "failed before it answered \(target): \(error)"
    }
  }

  /// A line for a message: quoted, cut after 200 bytes, invalid UTF-8 as hex.
  static func quoted(_ line: [UInt8]) -> String {
    Quoted.bytes(Array(line.prefix(200))) + (line.count > 200 ? "…" : "")
  }
}
