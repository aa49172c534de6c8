extension WaiverFile {
  /// A waiver file brought up to date with a run (`--waivers OLD --write-waivers NEW`): what was kept, narrowed, dropped
  /// and added.
  ///
  /// Every waiver still needed keeps its reason and issue link as the partner edited them; a stale one is dropped; a
  /// failure no waiver covers gets a new, adopted waiver. Judged on the run's results before waivers are applied:
  /// - a waiver whose vectors all failed, warned, errored or did not run (or that this run did not select) is kept as is;
  /// - a waiver whose vectors all passed is stale and dropped;
  /// - a glob waiver whose vectors partly passed is narrowed to the exact (escaped) ids of the others, each with the
  ///   glob's reason and issue, since a waiver over a passing vector fails the run as stale.
  package struct Update: Sendable, Hashable {
    /// The updated file: the kept and narrowed waivers in their old order, then the new ones.
    package var file: WaiverFile
    /// The waivers dropped because every vector they cover passes.
    package var dropped: [Waiver]
    /// The glob waivers replaced by exact ids because some of their vectors pass.
    package var narrowed: [Waiver]
    /// The waivers added for failures no old waiver covered.
    package var added: [Waiver]

    /// One line for the console, e.g. `kept 3, narrowed 1, dropped 2 stale ("a", "b"), added 1`.
    package var summary: String {
      let kept = file.waivers.count - added.count
      var line = "kept \(kept), narrowed \(narrowed.count), dropped \(dropped.count) stale"
      if !dropped.isEmpty { line += " (" + dropped.map { "\"\($0.id)\"" }.joined(separator: ", ") + ")" }
      return line + ", added \(added.count)"
    }
  }

  /// This file updated with a run's results, taken before the waivers were applied (or read from a JUnit report,
  /// where a waived failure counts as failed and a stale waiver's vector as passed).
  package func updated(with results: [VectorResult], date: String) -> Update {
    var update = Update(file: WaiverFile(waivers: []), dropped: [], narrowed: [], added: [])
    for waiver in waivers {
      let covered = results.filter { waiver.matches($0.id) }
      // A stale result (from a JUnit report, `--waivers-from`) passed before its waiver was applied.
      let needed = covered.filter { $0.status != .passed && $0.status != .stale }
      if covered.count == needed.count {
        update.file.waivers.append(waiver)
      } else if needed.isEmpty {
        update.dropped.append(waiver)
      } else {
        update.narrowed.append(waiver)
        for id in needed.map(\.id) where !update.file.waivers.contains(where: { $0.matches(id) }) {
          update.file.waivers.append(Waiver(id: VectorFilter.escaped(id), reason: waiver.reason, issue: waiver.issue))
        }
      }
    }
    let uncovered = results.filter { result in result.isWaivable && !waivers.contains { $0.matches(result.id) } }
    update.added = uncovered.map { WaiverFile.adopted($0, date: date) }
    update.file.waivers += update.added
    return update
  }
}

extension VectorResult {
  /// Whether a waiver can cover this result: it failed or warned (errors are never waived).
  var isWaivable: Bool { status == .failed || status == .warning }
}
