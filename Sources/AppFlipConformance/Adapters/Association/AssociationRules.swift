import AppFlip
import Foundation

/// What the association profile's steps find (RULES.md AF-UL-1 to AF-UL-4): each file check against the file as the run
/// read it, and each link against Apple's decision for it.
///
/// A link must open the app when it is one Google sends: an association vector's, or an accepted app vector's whose
/// query is exactly `client_id`, `state`, `redirect_uri` and optionally `scope`, once each, names written plainly and
/// values decoding to UTF-8 (AF-UL-3, MUST). Any other link (an attack, a malformed value, an unknown parameter) opening
/// the website is noted only (MAY): the app never sees it, which is no harm to App Flip.
enum AssociationRules {
  /// The findings of one step of the association profile; none while the observation is inconclusive.
  static func findings(_ observation: Observation, expect: RenderedExpectation, vectorProfile: VectorFile.Profile)
    -> [Finding]
  {
    guard let seen = observation.association, observation.inconclusive == nil else { return [] }
    let snapshot = seen.snapshot
    switch expect.association {
    case nil:
      let sent = vectorProfile == .association || (expect.verdict == .accepted && isGoogleLink(seen.link))
      return linkFindings(seen, level: sent ? .must : .may)
    case .served:
      guard let status = snapshot.status, status != 200 else { return [] }
      if (300...399).contains(status) {
        return finding(
          "AF-UL-1", .must, "association.status", "HTTP 200 with the file",
          "HTTP \(status) to \(Quoted.string(snapshot.location ?? "nowhere"))",
          "Apple fetches \(Quoted.string(snapshot.source)) without following redirects, so the redirect leaves this "
            + "host without an association and App Flip falls back to the browser; serve the file at this URL itself.")
      }
      return finding(
        "AF-UL-1", .must, "association.status", "HTTP 200 with the file", "HTTP \(status)",
        "Apple needs the file at \(Quoted.string(snapshot.source)) with status 200; serve it there over https.")
    case .noCredentials:
      guard let status = snapshot.status, [401, 403, 407].contains(status) else { return [] }
      return finding(
        "AF-UL-4", .should, "association.status", "HTTP 200 to a request without credentials", "HTTP \(status)",
        "Apple's CDN asks for the file without cookies or credentials; serve it to any client.")
    case .appleUserAgent:
      guard let apple = snapshot.asApple else { return [] }
      let agent = AssociationSnapshot.AppleAnswer.userAgent
      if let failure = apple.failure {
        return finding(
          "AF-UL-4", .should, "association.appleUserAgent", "the same answer", "no answer: \(failure)",
          "The request with Apple's CDN's User-Agent, \(agent), got no answer; allow it through your firewall or WAF.")
      }
      guard apple.status != snapshot.status || !apple.sameBody else { return [] }
      return finding(
        "AF-UL-4", .should, "association.appleUserAgent",
        "HTTP \(snapshot.status.map(String.init) ?? "?") with the same file",
        "HTTP \(apple.status.map(String.init) ?? "?")\(apple.sameBody ? "" : " with other bytes")",
        "The file is served differently to \(agent), the User-Agent of Apple's CDN: a bot or user-agent rule keeps "
          + "Apple from the file; serve every client alike.")
    case .size:
      guard snapshot.exceedsReadLimit || snapshot.size > AssociationSnapshot.sizeLimit else { return [] }
      let actual = snapshot.exceedsReadLimit ? "over 1 MiB (the suite reads no more)" : "\(snapshot.size) bytes"
      return finding(
        "AF-UL-1", .must, "association.size", "at most 128 KB (\(AssociationSnapshot.sizeLimit) bytes)", actual,
        "Apple does not use an association file over 128 KB; remove what App Flip and your other links do not need.")
    case .json:
      var found: [Finding] = []
      if snapshot.fetched, let problem = contentTypeProblem(snapshot.contentType) {
        found += finding(
          "AF-UL-1", .should, "association.contentType", "application/json", problem,
          "Serve the file with Content-Type: application/json, the type Apple's documentation names.")
      }
      if let unusable = snapshot.unusable {
        found += finding(
          "AF-UL-1", .must, "association.json", "a JSON object with \"applinks\"", "the file \(unusable)",
          "Apple reads nothing from a file that is not such JSON; fix it and check it with a JSON parser.")
      }
      for problem in snapshot.file?.problems ?? [] {
        found += finding(
          "AF-UL-1", problem.breaks ? .must : .should, "association.\(problem.location)",
          problem.breaks ? "what Apple's format defines" : "only keys Apple reads", problem.message,
          "\(problem.location) \(problem.message).")
      }
      return found
    case .appID, .appIDLinks, .appIDFirst:
      return appIDFindings(seen, check: expect.association)
    case .appleNetwork:
      return []
    }
  }

  /// One finding, as a list.
  static func finding(
    _ rule: String, _ level: Level, _ field: String, _ expected: String, _ actual: String, _ message: String
  ) -> [Finding] {
    [Finding(rule: rule, level: level, field: field, expected: expected, actual: actual, message: message)]
  }

  /// The finding of a link that does not open the app, naming the component that decided it.
  static func linkFindings(_ seen: AssociationObservation, level: Level) -> [Finding] {
    guard let decision = seen.decision, !decision.opens else { return [] }
    let notSent =
      level == .must
      ? ""
      : "This link is not one Google sends, so only note it: the app never sees it, and its handler vector is moot. "
    if let deciding = decision.deciding {
      let kind = deciding.location.contains(".paths[") ? "path" : "component"
      return finding(
        "AF-UL-3", level, "association.\(deciding.location)", "opens \(seen.appID)",
        "excluded by \(deciding.location) \(deciding.text)",
        notSent + "\(deciding.location) is the first \(kind) that matches this link, and it excludes it: Apple stops "
          + "at the first match, so the link opens the website and App Flip falls back to the browser; put the "
          + "exclusion after the App Flip \(kind), or narrow it.")
    }
    let shown = decision.misses.prefix(3).map { "\($0.location) \($0.text): \($0.reason)" }
    let more = decision.misses.count > 3 ? ["… \(decision.misses.count - 3) more"] : []
    return finding(
      "AF-UL-3", level, "association.components", "opens \(seen.appID)",
      shown.isEmpty ? "no component" : (shown + more).joined(separator: "; "),
      notSent + "No component of the entries naming \(seen.appID) matches this link, so it opens the website and App "
        + "Flip falls back to the browser; fix the component meant for App Flip (actual says what each misses), or "
        + "add one such as {\"/\": \"\(pathHint(seen.link))\"}.")
  }

  /// The path of a link, for the component a fix suggests.
  static func pathHint(_ link: String) -> String {
    AssociationURL(link).map { $0.path.isEmpty ? "/" : $0.path } ?? "/"
  }

  /// Whether a link is one Google sends: exactly `client_id`, `state`, `redirect_uri` and optionally `scope`, once each,
  /// names written plainly, values decoding to UTF-8, each escape as a URI producer writes it (RFC 3986 §2.1, §2.3:
  /// upper-case hex, never an unreserved character), no fragment.
  static func isGoogleLink(_ link: String) -> Bool {
    let query = URLQuery(link)
    guard query.fragment == nil else { return false }
    var names: [String] = []
    for parameter in query.parameters {
      guard parameter.stringValue != nil, let name = parameter.name, name == String(parameter.rawName),
        isProducerEncoded(parameter.rawValue)
      else { return false }
      names.append(name)
    }
    let required = ["client_id", "redirect_uri", "state"]
    return names.sorted() == required || names.sorted() == ["client_id", "redirect_uri", "scope", "state"]
  }

  /// Whether every escape of `value` has upper-case hex digits and encodes a byte that is not unreserved.
  static func isProducerEncoded(_ value: Substring) -> Bool {
    let bytes = Array(value.utf8)
    for index in bytes.indices where bytes[index] == UInt8(ascii: "%") && index + 2 < bytes.count {
      let digits = bytes[(index + 1)...(index + 2)]
      guard !digits.contains(where: { (UInt8(ascii: "a")...UInt8(ascii: "f")).contains($0) }),
        let high = Hex.value(digits.first!), let low = Hex.value(digits.last!),
        !PercentEncoding.isUnreserved(high << 4 | low)
      else { return false }
    }
    return true
  }

  /// What is wrong with a Content-Type for the file, or `nil` for `application/json` (parameters allowed).
  static func contentTypeProblem(_ contentType: String?) -> String? {
    guard let contentType else { return "no Content-Type" }
    let media = contentType.split(separator: ";", maxSplits: 1).first.map(String.init) ?? ""
    return media.trimmingCharacters(in: .whitespaces).lowercased() == "application/json"
      ? nil : Quoted.string(contentType)
  }

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
