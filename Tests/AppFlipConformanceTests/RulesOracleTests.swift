import AppFlip
import Testing

@testable import AppFlipConformance

@Suite("Rules oracle")
struct RulesOracleTests {
  /// What two expectations must share to agree: verdict, code request and reply, field by field.
  static func essence(_ expect: RenderedExpectation, scopes: Bool) -> String {
    var parts = [expect.verdict.rawValue]
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

  static let configurations: [PartnerConfiguration] = [
    .default,
    PartnerConfiguration(
      clientID: "987654321098-partner.apps.googleusercontent.com", universalLink: "https://partner.example/appflip",
      allowList: RedirectAllowList([
        "https://oauth-redirect.googleusercontent.com/a/com.google.Chromecast",
        "https://oauth-redirect-sandbox.googleusercontent.com/a/com.google.Chromecast",
      ])),
    PartnerConfiguration(
      clientID: "246813579024-Kappa+flip~test.apps.googleusercontent.com",
      universalLink: "https://partner.example/flip",
      allowList: RedirectAllowList(["https://oauth-redirect-sandbox.googleusercontent.com/a/com.google.OPA"])),
  ]

  @Test("Computes, from the rules alone, what every bundled vector expects, under each configuration", arguments: 0..<3)
  func agreesWithCorpus(index: Int) {
    let catalog = VectorLoader.loadBundled()
    var disagreements: [String] = []
    for loaded in catalog.vectors {
      let vector = loaded.vector
      let configuration = vector.configuration?.applied(to: Self.configurations[index]) ?? Self.configurations[index]
      let oracle = RulesOracle(configuration: configuration)
      for (number, step) in vector.steps.enumerated() {
        guard case .success(let rendered) = RenderedStep.render(step, with: configuration) else { continue }
        let (preferred, alternatives) = oracle.answers(to: rendered.link, outcome: rendered.outcome)
        let scopes = rendered.expect.authorization?.scopes != nil
        let expected = Self.essence(rendered.expect, scopes: scopes)
        let computed = Self.essence(RenderedExpectation(preferred), scopes: scopes)
        if expected != computed {
          disagreements.append("\(vector.id) step \(number):\n  vector: \(expected)\n  oracle: \(computed)")
        }
        let expectedAlternatives = Set(rendered.alternatives.map { Self.essence($0.expect, scopes: false) })
        let computedAlternatives = Set(alternatives.map { Self.essence(RenderedExpectation($0.expect), scopes: false) })
        if !expectedAlternatives.isSubset(of: computedAlternatives) {
          disagreements.append(
            "\(vector.id) step \(number) alternatives:\n  vector: \(expectedAlternatives)\n  oracle: \(computedAlternatives)"
          )
        }
      }
    }
    #expect(
      disagreements.isEmpty,
      "\(disagreements.count) disagreements:\n\(disagreements.prefix(20).joined(separator: "\n"))")
  }
}
