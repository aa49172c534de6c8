import AppFlip

extension DeliveryPlatform {
  /// A vector's rendered steps as an app on this platform receives them, or why the vector does not run there
  /// (RULES.md, "Decisions": "The link the app receives").
  ///
  /// A link the platform cannot deliver skips the vector. A link it delivers in another form (iOS 17 encoding a
  /// component again) is sent in that form:
  /// - with the same expectation when the App Flip parameters read the same in it (only the fragment, an unknown
  ///   parameter or how a character is escaped changed);
  /// - expecting the link to be ignored when its `redirect_uri` no longer reads as one allowed URL (AF-RU-4, whatever
  ///   else the link holds), for a vector of one step, its findings saying why;
  /// - otherwise (a parameter reads otherwise while `redirect_uri` stays allowed, or a step of several would change its
  ///   verdict) the vector is skipped with both forms.
  func deliver(_ steps: [RenderedStep], allowList: RedirectAllowList) -> Result<[RenderedStep], VectorPlan.Skip> {
    var delivered = steps
    let prefix = "cannot run on \(displayName) (--platform \(rawValue)): "
    for (index, step) in steps.enumerated() {
      let which = steps.count > 1 ? "step \(index)'s link" : "its link"
      let form: String
      switch self.delivered(step.link) {
      case .failure(let refusal):
        return .failure(VectorPlan.Skip(reason: prefix + "\(which) is undeliverable: \(refusal.reason)"))
      case .success(let arrived):
        form = arrived
      }
      guard !Bytes.equal(form, step.link) else { continue }
      delivered[index].link = form
      delivered[index].sentLink = step.link
      let sent = AppFlipReading(step.link)
      let arrived = AppFlipReading(form)
      guard let changed = AppFlipReading.names.first(where: { sent.values($0) != arrived.values($0) }) else { continue }
      let change =
        "URL(string:) turns \(which), \(Quoted.string(step.link)), into \(Quoted.string(form))"
        + (FoundationURLParser.invalidQueryCharacter(step.link).map {
          " (it percent-encodes the whole query again, every % included, because of \($0))"
        } ?? "")
      let reads = "\(changed) reads \(arrived.describe(changed)) there, not \(sent.describe(changed))"
      if !arrived.hasOneAllowedRedirect(allowList) {
        // Ignored as sent, ignored as delivered: the expectation holds.
        if step.expect.verdict == .ignored && step.alternatives.isEmpty { continue }
        guard steps.count == 1 else {
          return .failure(VectorPlan.Skip(reason: prefix + change + ", where " + reads + ", so that step is ignored"))
        }
        delivered[index].expect = RenderedExpectation(verdict: .ignored)
        delivered[index].alternatives = []
        delivered[index].deliveryNote =
          "On \(displayName) (--platform \(rawValue)) \(change): \(reads), not an allowed URL, so the app ignores the"
          + " link (AF-RU-4)."
        continue
      }
      return .failure(
        VectorPlan.Skip(reason: prefix + change + ", where " + reads + ", so the vector's expectation does not hold"))
    }
    return .success(delivered)
  }
}

/// The App Flip parameters a handler reads from a link: each of `client_id`, `state`, `scope` and `redirect_uri` with
/// its values decoded once (RFC 3986), in order; `nil` for a value whose escapes are broken.
struct AppFlipReading {
  /// The parameters the reading keeps, in the order a difference is reported.
  static let names = ["redirect_uri", "client_id", "state", "scope"]

  private let query: URLQuery

  init(_ link: String) {
    query = URLQuery(link)
  }

  /// The decoded values of the parameters named `name`.
  func values(_ name: String) -> [[UInt8]?] {
    query.parameters(named: name).map(\.value)
  }

  /// Whether `redirect_uri` appears once and decodes to an allowed URL, byte for byte (AF-RU-1).
  func hasOneAllowedRedirect(_ allowList: RedirectAllowList) -> Bool {
    let values = values("redirect_uri")
    guard values.count == 1, let value = values[0] else { return false }
    return allowList.urls.contains { $0.utf8.elementsEqual(value) }
  }

  /// The values of `name` for a sentence: `"s1"`, `absent`, `a broken escape`, or several of them in brackets.
  func describe(_ name: String) -> String {
    let shown = values(name).map { $0.map(Quoted.bytes) ?? "a broken escape" }
    switch shown.count {
    case 0: return "absent"
    case 1: return shown[0]
    default: return "[" + shown.joined(separator: ", ") + "]"
    }
  }
}
