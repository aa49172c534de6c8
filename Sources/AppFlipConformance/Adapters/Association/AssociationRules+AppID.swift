extension AssociationRules {
  /// The app-id checks (AF-UL-2): the file names the app exactly, claims links for it, and no other app's entry claims
  /// the step's link first.
  static func appIDFindings(_ seen: AssociationObservation, check: Vector.AssociationCheck?) -> [Finding] {
    guard let file = seen.snapshot.file else { return [] }
    let appID = seen.appID
    let entries = file.entries(naming: appID)
    switch check {
    case .appID where entries.isEmpty:
      let listed = file.entries.flatMap(\.appIDs)
      return finding(
        "AF-UL-2", .must, "association.appIDs", Quoted.string(appID),
        listed.isEmpty ? "no app id" : Quoted.list(Array(listed.prefix(8))),
        diagnosis(appID, listed: listed, otherServices: file.otherServices))
    case .appIDLinks where !entries.isEmpty:
      let claiming = entries.flatMap(\.components).filter { !$0.exclude && !$0.broken }
      guard claiming.isEmpty else { return [] }
      let places = entries.map(\.location).joined(separator: ", ")
      return finding(
        "AF-UL-2", .must, "association.components", "a pattern that claims links", "none in \(places)",
        "The entries naming \(appID) (\(places)) claim no link: no component or path that is not an exclusion; "
          + "add one such as {\"/\": \"\(pathHint(seen.link))\"}.")
    case .appIDFirst:
      guard let decision = seen.decision, decision.opens, let claim = decision.earlierClaims.first else { return [] }
      return finding(
        "AF-UL-2", .should, "association.\(claim.location)", "opens \(appID)",
        "claimed first by \(claim.appID) at \(claim.location)",
        "\(claim.location) claims this link for \(claim.appID) in an entry before \(appID)'s: the first match wins, so "
          + "a device with \(claim.appID) installed opens it there; order \(appID)'s entry first, or exclude the App "
          + "Flip path from the other app's.")
    default:
      return []
    }
  }

  /// Why `listed` does not hold `appID`, and what to write: the near miss it holds (case, team id, missing team id,
  /// bundle id), the other service that names it, or what it names instead.
  static func diagnosis(_ appID: String, listed: [String], otherServices: [String: [String]]) -> String {
    let parts = appID.split(separator: ".", maxSplits: 1).map(String.init)
    let team = parts.first ?? ""
    let bundle = parts.count > 1 ? parts[1] : ""
    func bundleOf(_ id: String) -> String {
      id.split(separator: ".", maxSplits: 1).dropFirst().first.map(String.init) ?? ""
    }
    let found: String
    let fix: String
    if let near = listed.first(where: { $0.lowercased() == appID.lowercased() }) {
      found = "names \(Quoted.string(near)), which differs from it in case"
      fix = "write it exactly"
    } else if let near = listed.first(where: { bundleOf($0) == bundle }) {
      let theirs = near.split(separator: ".").first.map(String.init) ?? ""
      found = "names \(Quoted.string(near)), whose team id \(Quoted.string(theirs)) is not \(Quoted.string(team))"
      fix = "write the team id (App ID prefix) the app is signed with"
    } else if let near = listed.first(where: { $0 == bundle }) {
      found = "names \(Quoted.string(near)) without a team id"
      fix = "write \(Quoted.string(appID)), team id first"
    } else if let near = listed.first(where: { $0.hasPrefix(team + ".") }) {
      found = "names \(Quoted.string(near)) of the same team, whose bundle id is not \(Quoted.string(bundle))"
      fix = "add an entry for the App Flip app's bundle id"
    } else if let service = otherServices.keys.sorted().first(where: { otherServices[$0]?.contains(appID) == true }) {
      found = "does not name it (the file lists it only under \(service))"
      fix = "name it in applinks.details too"
    } else {
      found = listed.isEmpty ? "names no app" : "does not name it"
      fix = "add it to the appIDs of the entry that claims the App Flip link"
    }
    return "applinks.details \(found), so no link opens \(appID) (the configured appID); \(fix)."
  }
}
