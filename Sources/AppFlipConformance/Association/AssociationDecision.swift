import AppFlip

/// What Apple's rules decide for one link and one app: the first of the app's components, in file order, that the link
/// matches decides, and an `exclude` one keeps the link from opening the app (Apple: applinks.Details.Components, "The
/// first match wins"; `exclude` "stop[s] pattern matching and prevent[s] the universal link from opening").
///
/// Each app is decided by the entries that name it; another app whose entry comes earlier and claims the link is noted,
/// since "the first match wins, allowing you to designate one app to handle specified URLs … and another app to handle
/// the rest".
package struct AssociationDecision: Sendable, Hashable {
  /// The component that decided, or `nil` when none of the app's components matches the link.
  package var deciding: AssociationFile.Component?
  /// Why each of the app's components before the deciding one did not match, in order.
  package var misses: [Miss]
  /// Other apps whose entries before the deciding one's claim the link, when the app claims it.
  package var earlierClaims: [Claim]

  /// Whether the link opens the app.
  package var opens: Bool { deciding.map { !$0.exclude } ?? false }

  /// One component that did not match, and why.
  package struct Miss: Sendable, Hashable {
    /// Where it is, e.g. `applinks.details[0].components[1]`.
    package var location: String
    /// The component as written.
    package var text: String
    /// Which part did not match and how, e.g. `"/" "/AppFlip" does not match the path "/appflip"`.
    package var reason: String
  }

  /// Another app that claims the link in an earlier entry.
  package struct Claim: Sendable, Hashable {
    /// The other app.
    package var appID: String
    /// The component that claims it for that app.
    package var location: String
  }
}

extension AssociationFile {
  /// Decides whether `link` opens the app `appID` under this file.
  package func decide(_ link: String, for appID: String) -> AssociationDecision {
    var decision = AssociationDecision(deciding: nil, misses: [], earlierClaims: [])
    guard let url = AssociationURL(link) else { return decision }
    var decidedEntry = entries.count
    var decidedApps: Set<String> = []
    outer: for (index, entry) in entries.enumerated() {
      let named = entry.appIDs.contains { Bytes.equal($0, appID) }
      for component in entry.components {
        if let reason = component.miss(url) {
          if named { decision.misses.append(.init(location: component.location, text: component.text, reason: reason)) }
          continue
        }
        // The first match decides for every app of this entry not decided by an earlier one.
        for other in entry.appIDs where !Bytes.equal(other, appID) && decidedApps.insert(other).inserted {
          if !component.exclude { decision.earlierClaims.append(.init(appID: other, location: component.location)) }
        }
        if named {
          decision.deciding = component
          decidedEntry = index
          break outer
        }
        break
      }
    }
    // Only a link the app claims can be claimed earlier; an app listed in the deciding entry shares its patterns.
    let opens = decision.opens
    decision.earlierClaims.removeAll { claim in !opens || entries[decidedEntry].appIDs.contains(claim.appID) }
    return decision
  }
}

extension AssociationFile.Component {
  /// Why `url` does not match this component, or `nil` when it matches every part the component gives.
  func miss(_ url: AssociationURL) -> String? {
    if broken { return "it has a part the suite cannot read (the file's problems name it), so it matches nothing" }
    if let path, let reason = miss(path, url.path, part: "the path") { return "\"/\" " + reason }
    switch query {
    case .pattern(let pattern):
      if let reason = miss(pattern, url.query ?? "", part: "the query") { return "\"?\" " + reason }
    case .items(let items):
      for item in items {
        let values = url.items.filter { name in
          guard let decoded = percentEncoded ? name.name : AssociationURL.decoded(name.name) else { return false }
          return item.pattern.ignoresCase ? decoded.lowercased() == item.name.lowercased() : decoded == item.name
        }.map { $0.value ?? "" }
        guard !values.isEmpty else {
          // "Query items with no value and absent query items are treated … as if they have a value equal to the
          // empty string" (WWDC 2019, 717).
          if item.pattern.matches("") { continue }
          return "\"?\" item \(Quoted.string(item.name)): the link has none, which Apple reads as an empty value, "
            + "and \(Quoted.string(item.pattern.text)) does not match \"\""
        }
        for value in values {
          if let reason = miss(item.pattern, value, part: "its value") {
            let repeated = values.count > 1 ? " (every value of a repeated item must match)" : ""
            return "\"?\" item \(Quoted.string(item.name)): " + reason + repeated
          }
        }
      }
    case nil:
      break
    }
    if let fragment, let reason = miss(fragment, url.fragment ?? "", part: "the fragment") { return "\"#\" " + reason }
    return nil
  }

  /// Why `pattern` does not match the URL part `encoded` (percent-encoded as in the URL), with what would make it.
  private func miss(_ pattern: AssociationPattern, _ encoded: String, part: String) -> String? {
    let decoded = AssociationURL.decoded(encoded)
    guard let subject = percentEncoded ? encoded : decoded else {
      if pattern.matchesEverything { return nil }
      return "\(Quoted.string(pattern.text)) cannot match \(part) \(Quoted.string(encoded)): with "
        + "\"percentEncoded\": false it is decoded first, and its bytes are not UTF-8"
    }
    if pattern.matches(subject) { return nil }
    var reason = "\(Quoted.string(pattern.text)) does not match \(part) \(Quoted.string(subject))"
    if !pattern.ignoresCase && pattern.matchesIgnoringCase(subject) {
      reason += " (only the case differs: Apple matches case-sensitively unless \"caseSensitive\" is false)"
    } else if percentEncoded, let decoded, pattern.matches(decoded) {
      reason +=
        " (it matches the decoded text \(Quoted.string(decoded)), but Apple compares the percent-encoded"
        + " URL unless \"percentEncoded\" is false)"
    } else if !percentEncoded, pattern.matches(encoded) {
      reason += " (it matches the percent-encoded text, but \"percentEncoded\": false compares decoded text)"
    }
    return reason
  }
}
