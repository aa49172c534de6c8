import AppFlip
import Testing

@testable import AppFlipConformance

@Suite("Rules oracle")
struct RulesOracleTests {
  /// What two answers must share to agree: verdict, code request and reply, field by field, and whether it warns;
  /// scopes only when `scopes` (the vector asserts them).
  static func essence(_ expect: RenderedExpectation, scopes: Bool, warns: Bool = false) -> String {
    var parts = [expect.verdict.rawValue + (warns ? " (warns)" : "")]
    if let authorization = expect.authorization {
      parts.append("auth \(authorization.clientID) \(authorization.redirectURI)")
      if scopes { parts.append("scopes \(authorization.scopes.map { $0.joined(separator: "|") } ?? "-")") }
    }
    if let reply = expect.reply {
      parts.append(
        "reply \(reply.base) code=\(reply.code ?? "-") error=\(reply.error?.rawValue ?? "-") state=\(reply.stateBytes.map(RulesOracle.hex) ?? "-")"
      )
    }
    return parts.joined(separator: "; ")
  }

  @Test(
    "The oracle accepts exactly the answers every bundled vector accepts, alternatives included, under each configuration the kill matrix uses",
    arguments: TestConfigurations.names)
  func agreesWithCorpus(name: String) throws {
    let catalog = VectorLoader.loadBundled()
    let base = try #require(TestConfigurations.byName[name])
    var disagreements: [String] = []
    var compared = 0
    for loaded in catalog.vectors {
      let vector = loaded.vector
      let configuration = vector.configuration?.applied(to: base) ?? base
      let oracle = RulesOracle(configuration: configuration)
      for (number, step) in vector.steps.enumerated() {
        guard let rendered = try? RenderedStep.render(step, with: configuration) else { continue }
        compared += 1
        let (preferred, alternatives) = oracle.answers(to: rendered.link, outcome: rendered.outcome)
        let scopes = rendered.expect.authorization?.scopes != nil
        let expected = Self.essence(rendered.expect, scopes: scopes)
        let computed = Self.essence(RenderedExpectation(preferred), scopes: scopes)
        if expected != computed {
          disagreements.append("\(vector.id) step \(number):\n  vector: \(expected)\n  oracle: \(computed)")
        }
        let corpus = Set(
          rendered.alternatives.map {
            Self.essence($0.expect, scopes: $0.expect.authorization?.scopes != nil, warns: $0.warns)
          })
        // Scopes are compared where the vector's alternative asserts them, as for the preferred answer.
        let asserted = Set(
          rendered.alternatives.filter { $0.expect.authorization?.scopes != nil }.map(\.expect.verdict))
        let computedAlternatives = Set(
          alternatives.map {
            Self.essence(
              RenderedExpectation($0.expect), scopes: asserted.contains($0.expect.verdict), warns: $0.warns)
          })
        if corpus != computedAlternatives {
          disagreements.append(
            "\(vector.id) step \(number) alternatives:\n  vector only: \(corpus.subtracting(computedAlternatives).sorted())\n  oracle only: \(computedAlternatives.subtracting(corpus).sorted())"
          )
        }
      }
    }
    #expect(compared > 400)
    #expect(
      disagreements.isEmpty,
      "\(disagreements.count) disagreements under \(name):\n\(disagreements.prefix(30).joined(separator: "\n"))")
  }
}
