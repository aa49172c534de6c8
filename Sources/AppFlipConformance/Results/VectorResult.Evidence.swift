extension VectorResult {
  /// What a partner needs to act on a result that did not pass: what the vector is about, the rules it cites, each
  /// link as sent (and as the target platform delivered it), the scripted outcome, what the implementation did, and
  /// the one command that runs the vector again (README, "Reading a failure").
  package struct Evidence: Sendable, Hashable, Codable {
    /// One rule the vector cites, as RULES.md (or the partner's `rules.json`) states it.
    package struct Rule: Sendable, Hashable, Codable {
      /// The rule id, e.g. `AF-RE-5`.
      package var id: String
      /// The rule's level as its document writes it, e.g. `MUST` or `SHOULD / MUST`.
      package var level: String
      /// The rule's one sentence; empty for a rule neither document defines.
      package var sentence: String
    }

    /// One step: the link and what happened to it.
    package struct Step: Sendable, Hashable, Codable {
      /// The link as Google's app sent it, byte for byte.
      package var link: String
      /// The link as the target platform handed it to the app (`--platform ios17`), when that differs from `link`.
      package var delivered: String?
      /// The scripted user and server outcome, e.g. `granted, code "c1"`; `nil` for an endpoint, whose server decides.
      package var outcome: String?
      /// What the implementation did: the URL it opened (or that it opened nothing) and its code requests.
      package var did: String
    }

    /// The vector's description.
    package var description: String
    /// The rules the vector cites, each with its level and sentence (filled in once the run is over).
    package var rules: [Rule] = []
    /// Every step that was sent, in order.
    package var steps: [Step]
    /// The command that runs this vector again, as the run was set up (filled in once the run is over); empty when
    /// unknown.
    package var reproduce = ""

    /// The most characters of a link the text reports show (the JSON results keep it whole); a longer one shows its
    /// head, its tail and its length, and the reproduce command sends it.
    static let shownLink = 1_900

    /// The evidence as lines for a text report: description, rules, each step's link, delivered form, outcome and
    /// what was done. The reproduce line comes last, after the diff (`reproduceLine`).
    var lines: [String] {
      var lines = ["checks:    " + description]
      for rule in rules {
        lines.append("rule:      \(rule.id) (\(rule.level))" + (rule.sentence.isEmpty ? "" : " \(rule.sentence)"))
      }
      for (index, step) in steps.enumerated() {
        let prefix = steps.count > 1 ? "steps[\(index)] " : ""
        lines.append(prefix + "link:      " + Quoted.string(step.link, limit: Self.shownLink))
        if let delivered = step.delivered {
          lines.append(prefix + "delivered: " + Quoted.string(delivered, limit: Self.shownLink))
        }
        if let outcome = step.outcome { lines.append(prefix + "outcome:   " + outcome) }
        lines.append(prefix + "did:       " + step.did)
      }
      return lines
    }

    /// `reproduce: COMMAND`, or `nil` when the command is unknown.
    var reproduceLine: String? { reproduce.isEmpty ? nil : "reproduce: " + reproduce }
  }
}
