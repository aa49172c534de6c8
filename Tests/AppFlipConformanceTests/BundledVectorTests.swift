import AppFlipConformance
import AppFlipConformanceTesting
import Testing

/// The bundled reference handler against every bundled vector, one test case per vector, through the partner-facing harness.
let referenceHarness = ConformanceHarness(
  makeHandler: { ReferenceHandlerAdapter(configuration: $0) }, junit: "Reports/appflip-conformance-swift-testing.xml",
  strict: true)

@Suite("Bundled vectors")
struct BundledVectorTests {
  @Test("The reference handler passes the vector, with no warning", arguments: referenceHarness.cases)
  func reference(_ vector: ConformanceCase) async {
    await referenceHarness.check(vector)
  }

  @Test("The bundled corpus loads without problems and has at least 60 vectors")
  func corpusLoads() {
    let catalog = VectorLoader.loadBundled()
    #expect(catalog.problems.map(\.description) == [])
    #expect(catalog.vectors.count >= 60)
  }

  @Test("Every bundled vector cites a spec section, a rule and a flag")
  func citations() {
    for loaded in VectorLoader.loadBundled().vectors {
      #expect(!loaded.vector.spec.isEmpty, "\(loaded.vector.id)")
      #expect(!loaded.vector.rules.isEmpty, "\(loaded.vector.id)")
      #expect(!loaded.vector.flags.isEmpty, "\(loaded.vector.id) has no flag")
    }
  }
}
