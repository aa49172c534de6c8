/// What the association adapter saw for one step: the file as the run read it, the app it looks for, and, for a link,
/// what Apple's rules decide for it (RULES.md AF-UL-1 to AF-UL-4).
package struct AssociationObservation: Sendable, Hashable {
  /// The file, once per run.
  package var snapshot: AssociationSnapshot
  /// The app id the configuration names (`appID`), e.g. `ABCDE12345.com.acme.app`.
  package var appID: String
  /// The step's link, as sent.
  package var link: String
  /// Apple's decision for the link, when the file could be read.
  package var decision: AssociationDecision?

  /// What was seen, in a few words, for a failure's evidence: Apple's decision for the link, or how the file was read.
  package var summary: String {
    if let decision {
      guard let deciding = decision.deciding else { return "no component for \(appID) matches it: the website opens" }
      return deciding.exclude
        ? "excluded by \(deciding.location): the website opens" : "opens \(appID) by \(deciding.location)"
    }
    let read = "\(snapshot.fetched ? "fetched" : "read") \(Quoted.string(snapshot.source))"
    if snapshot.failure != nil { return read + ": no answer" }
    let status = snapshot.status.map { "HTTP \($0)\(snapshot.location.map { " to \(Quoted.string($0))" } ?? ""), " }
    return read + ": " + (status ?? "") + (snapshot.exceedsReadLimit ? "over 1 MiB" : "\(snapshot.size) bytes")
  }
}
