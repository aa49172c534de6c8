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

  /// Creates an observation.
  package init(snapshot: AssociationSnapshot, appID: String, link: String, decision: AssociationDecision?) {
    self.snapshot = snapshot
    self.appID = appID
    self.link = link
    self.decision = decision
  }
}
