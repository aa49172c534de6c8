import AppFlip

/// One generated test: one or more incoming links sent to one handler, each with its scripted outcome.
package struct FuzzCase: Sendable, Hashable {
  /// One incoming link, kept in pieces so that it can be shrunk.
  package struct Link: Sendable, Hashable {
    /// The query's `&`-separated pieces, exactly as written (`name=value`, a bare name, or anything else).
    package var pieces: [String]
    /// The fragment after `#`, if any.
    package var fragment: String?
    /// What the scripted authorization step answers.
    package var outcome: AuthorizationOutcome

    /// The link under a universal link.
    package func text(universalLink: String) -> String {
      universalLink + "?" + pieces.joined(separator: "&") + (fragment.map { "#" + $0 } ?? "")
    }
  }

  /// The links, in order.
  package var links: [Link]
  /// Whether the links are in flight at once (AF-RE-10).
  package var interleaved: Bool

  /// The case as a vector whose expectations come from the rules oracle; `universal_link` keeps its placeholder.
  package func vector(id: String, description: String, configuration: PartnerConfiguration) -> Vector {
    let oracle = RulesOracle(configuration: configuration)
    let steps = links.map { link in
      let (expect, alternatives) = oracle.answers(
        to: link.text(universalLink: configuration.universalLink), outcome: link.outcome)
      return Vector.Step(
        incoming: .raw(link.text(universalLink: "{universal_link}")), outcome: Vector.Outcome(link.outcome),
        expect: expect, alternatives: alternatives)
    }
    let verdicts = steps.map { Set([$0.expect.verdict] + $0.alternatives.map(\.expect.verdict)) }
    let rules = verdicts.reduce(into: Set<Verdict>()) { $0.formUnion($1) }
    // Interleaved links all wait for each other's code request: only links that every allowed answer accepts.
    let interleavable = links.count > 1 && verdicts.allSatisfy { $0 == [.accepted] }
    return Vector(
      id: id, description: description, spec: ["RULES.md, the rules oracle (Fuzzing/RulesOracle.swift)"],
      rules: rules.contains(.accepted) ? ["AF-V-1"] : (rules.contains(.rejected) ? ["AF-V-2"] : ["AF-RU-4"]),
      level: .must, tags: ["fuzz"], steps: steps, interleaved: interleaved && interleavable)
  }

  /// Smaller cases that may still fail the same way, simplest first: fewer links, fewer pieces, shorter values.
  package var reductions: [FuzzCase] {
    var smaller: [FuzzCase] = []
    if links.count > 1 {
      for index in links.indices {
        var copy = self
        copy.links.remove(at: index)
        if copy.links.count < 2 { copy.interleaved = false }
        smaller.append(copy)
      }
      if interleaved {
        var copy = self
        copy.interleaved = false
        smaller.append(copy)
      }
    }
    for (index, link) in links.enumerated() {
      func with(_ change: (inout Link) -> Void) {
        var copy = self
        change(&copy.links[index])
        if copy != self { smaller.append(copy) }
      }
      with { $0.fragment = nil }
      for piece in link.pieces.indices { with { $0.pieces.remove(at: piece) } }
      for (piece, text) in link.pieces.enumerated() where text.utf8.count > 8 {
        let bytes = Array(text.utf8)
        let half = String(decoding: bytes[..<(bytes.count / 2 + 1)], as: UTF8.self)
        with { $0.pieces[piece] = half }
        let end = bytes.firstIndex(of: UInt8(ascii: "=")).map { $0 + 1 } ?? 0
        if bytes.count - end > 40 {
          with { $0.pieces[piece] = String(decoding: bytes[..<(end + 20)], as: UTF8.self) }
        }
      }
      if case .granted(let code) = link.outcome, code != "c\(index)" {
        with { $0.outcome = .granted(code: "c\(index)") }
      }
    }
    return smaller
  }
}
