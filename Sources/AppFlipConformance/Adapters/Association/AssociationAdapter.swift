/// Tests the partner's universal link association (RULES.md AF-UL, step 1 of App Flip): reads
/// `https://HOST/.well-known/apple-app-site-association` once (or a local file) and, for each step, reports the file as
/// read and what Apple's rules decide for the step's link and the configured `appID`.
///
/// It opens nothing and requests no code. A step whose check depends on what the file could not give (no answer, not a
/// 200, too large, not JSON, the app not named) is inconclusive, naming why; the file check that gives it fails or, for
/// no answer at all, is an error. What cannot be known from here is skipped with the reason: how a local file is
/// served, and whether Apple's CDN's network is let through.
package struct AssociationAdapter: ConformanceAdapter {
  /// Where the file comes from.
  package var source: AssociationSource
  /// The file fetched or read, for reports.
  package var name: String
  /// The run's universal link, whose host's file is read; a link on another host is skipped, never fetched.
  package var universalLink: String

  /// Association adapters run the association profile, which takes the app's vectors too.
  package var profile: VectorFile.Profile { .association }

  /// A vector's own configuration is matched as it is.
  package var acceptsConfiguration: Bool { true }

  /// Links are matched independently, so interleaved vectors' links are checked too.
  package var acceptsInterleaving: Bool { true }

  /// Creates an adapter reading `source` for a run whose universal link is `universalLink`.
  package init(source: AssociationSource, universalLink: String) {
    self.source = source
    self.universalLink = universalLink
    name = source.file ?? AssociationSource.url(forUniversalLink: universalLink) ?? universalLink
  }

  /// The sentence for a configuration without `appID`.
  package static let missingAppID =
    "field \"appID\": missing; the association profile checks that the file names your app: give --config a file "
    + "with \"appID\": \"TEAMID.bundle.id\" (the team id from developer.apple.com, a dot, the bundle id)"

  /// The sentence for the end of a run whose file could not be used (no answer, not a 200, too large, not JSON), so
  /// that no link was checked against it; `nil` otherwise.
  package var summary: String? {
    source.current?.unreadable.map { "no App Flip link was checked, since \($0)" }
  }

  /// Reports the file and Apple's decision for the step's link.
  package func handle(_ request: HandlerRequest) async throws -> Observation {
    let check = request.association
    let host = AssociationURL(universalLink)?.authority ?? ""
    for (what, link) in [("universal link", request.configuration.universalLink), ("link", request.link)]
    where (AssociationURL(link)?.authority ?? "") != host {
      throw ImplementationSkipped(
        reason: "its \(what) is on \(Quoted.string(AssociationURL(link)?.authority ?? link)), not on "
          + "\(Quoted.string(host)), whose association file this run reads")
    }
    if check == .appleNetwork {
      throw ImplementationSkipped(
        reason: "cannot be checked from this machine: Apple's CDN fetches the file from Apple's own addresses, so make "
          + "sure no firewall, WAF or geography rule blocks them, and see what it holds at "
          + "https://app-site-association.cdn-apple.com/a/v1/\(host)")
    }
    let snapshot = await source.snapshot(for: universalLink)
    if !snapshot.fetched, check == .served || check == .noCredentials || check == .appleUserAgent {
      throw ImplementationSkipped(
        reason: "the file was read from \(Quoted.string(snapshot.source)) (--association-file), not fetched, so how "
          + "the host serves it is not checked; run --association against the host for that")
    }
    guard let appID = request.configuration.appID else { throw AdapterError(message: Self.missingAppID) }
    if check == .served, let failure = snapshot.failure { throw AdapterError(message: failure) }
    var observation = Observation(opened: nil, authorizationRequests: nil)
    observation.inconclusive = blocker(check, snapshot, appID: appID).map { "not judged: \($0)" }
    // A link's check, and who claims it first; a check of the file itself is about the file.
    let decides = check == nil || check == .appIDFirst
    let decision = decides ? snapshot.file.map { $0.decide(request.link, for: appID) } : nil
    observation.association = AssociationObservation(
      snapshot: snapshot, appID: appID, link: request.link, decision: decision)
    return observation
  }

  /// Why the check cannot be judged from what the file gave, or `nil`: each check needs the stages before its own.
  func blocker(_ check: Vector.AssociationCheck?, _ snapshot: AssociationSnapshot, appID: String) -> String? {
    switch check {
    case .served:
      return snapshot.exceedsReadLimit && snapshot.status == nil
        ? "the answer is over 1 MiB, so the suite did not read its status (association/file/size)" : nil
    case .noCredentials, .appleUserAgent:
      return snapshot.failure.map { "the association file could not be fetched: \($0)" }
    case .size:
      guard snapshot.failure != nil || (snapshot.status ?? 200) != 200 else { return nil }
      return snapshot.unreadable
    case .json:
      guard snapshot.unusable == nil else { return nil }
      return snapshot.unreadable
    case .appID, .appIDLinks, .appIDFirst, .appleNetwork:
      return snapshot.unreadable
    case nil:
      if let unreadable = snapshot.unreadable { return unreadable }
      guard let file = snapshot.file, !file.entries(naming: appID).isEmpty else {
        return "the file names no applinks entry for \(Quoted.string(appID)) (association/app-id/listed says more)"
      }
      return nil
    }
  }
}
