import Foundation
import Testing

@testable import AppFlipConformance

/// A finding's level decides how much it matters, and a sentence printed beside it never says otherwise: the judge's
/// sentences carry no RFC 2119 keyword (a finding's level changes after it is written: capped by its vector's, raised
/// by a partner rule, lowered at the endpoint), and each rule sentence carries only its own level's.
@Suite("Sentences match their level")
struct SentenceLevelTests {
  /// The files whose string literals become the sentences of findings.
  static let judgeFiles = [
    "Sources/AppFlipConformance/Judging/Judge.swift", "Sources/AppFlipConformance/Judging/Judge+Plan.swift",
    "Sources/AppFlipConformance/Judging/UniversalLinksOnlyCheck.swift",
    "Sources/AppFlipConformance/Judging/DeliveryPlatform.swift",
    "Sources/AppFlipConformance/Judging/DeliveryPlatform+Delivery.swift",
    "Sources/AppFlipConformance/Judging/EndpointRules.swift",
    "Sources/AppFlipConformance/Adapters/Endpoint/EndpointAdapter.swift",
  ]

  /// The levels the RFC 2119 keywords in a sentence state, e.g. `[.must]` for "…must be…".
  static func levels(in sentence: String) -> Set<Level> {
    var levels: Set<Level> = []
    for word in sentence.lowercased().split(whereSeparator: { !$0.isLetter && $0 != "_" }) {
      switch word {
      case "must", "required", "shall": levels.insert(.must)
      case "should", "recommended": levels.insert(.should)
      case "may", "optional": levels.insert(.may)
      default: break
      }
    }
    return levels
  }

  /// The string literals of Swift source, comments left out (a small scanner: enough for this repository's style).
  static func literals(in source: String) -> [String] {
    var literals: [String] = []
    for line in source.split(separator: "\n") {
      let code = line.drop { $0 == " " }
      guard !code.hasPrefix("//") else { continue }
      var current: String?
      var escaped = false
      for character in code {
        if var text = current {
          if escaped {
            escaped = false
            text.append(character)
          } else if character == "\\" {
            escaped = true
            text.append(character)
          } else if character == "\"" {
            literals.append(text)
            current = nil
            continue
          } else {
            text.append(character)
          }
          current = text
        } else if character == "\"" {
          current = ""
        }
      }
    }
    return literals
  }

  @Test("No sentence the judge writes states a level: the level in brackets is the only one")
  func judgeSentences() throws {
    var checked = 0
    for path in Self.judgeFiles {
      let text = try String(contentsOf: SourceTree.root.appendingPathComponent(path), encoding: .utf8)
      for literal in Self.literals(in: text) {
        checked += 1
        #expect(Self.levels(in: literal).isEmpty, "\(path): \"\(literal)\" states a level of its own")
      }
    }
    #expect(checked > 100, "the scanner reads the judge's sentences")
  }

  @Test("The scanner finds a keyword in a literal and none in a comment")
  func scanner() {
    let source = #"""
      // The reply must carry state.
      let message = "The reply must carry \(name)." + "fine \"quoted\" text"
      """#
    let literals = Self.literals(in: source)
    #expect(literals == [#"The reply must carry \(name)."#, #"fine \"quoted\" text"#])
    #expect(Self.levels(in: literals[0]) == [.must])
    #expect(Self.levels(in: "Optional, or SHOULD") == [.may, .should])
  }

  @Test("Each rule sentence of RULES.md states no level but its own")
  func ruleSentences() {
    let rules = RulesDocument.bundled.rules
    #expect(rules.count > 25)
    for rule in rules {
      let own = Self.levels(in: rule.level)
      #expect(!own.isEmpty, "\(rule.id): level \"\(rule.level)\" names no level")
      for sentence in [rule.summary ?? "", rule.fix ?? ""] {
        let stated = Self.levels(in: sentence)
        #expect(stated.isSubset(of: own), "\(rule.id) (\(rule.level)): \"\(sentence)\" states \(stated)")
      }
    }
  }

  @Test("A failing result prints each cited rule with its level and sentence, which agree")
  func evidenceRules() async throws {
    let catalog = Fixtures.catalog([
      Fixtures.accepted(
        id: "t/no-state",
        expect: """
          {"verdict": "accepted", "authorization": {"clientId": "{client_id}", "redirectUri": "\(Fixtures.redirect)"},
           "reply": {"base": "\(Fixtures.redirect)", "code": "c1", "state": "other"}}
          """)
    ])
    let result = await Runner(adapter: InProcessAdapter(ReferenceHandlerAdapter())).run(catalog.vectors[0])
    let completed = EvidenceContext().complete(result)
    let rule = try #require(completed.evidence?.rules.first)
    #expect(rule.id == "AF-RE-2" && rule.level == "MUST" && !rule.sentence.isEmpty)
    #expect(Self.levels(in: rule.sentence).isSubset(of: Self.levels(in: rule.level)))
    #expect(completed.details.contains("rule:      AF-RE-2 (MUST) \(rule.sentence)"))
  }
}
