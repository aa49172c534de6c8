import AppFlip
import AppFlipConformance
import AppFlipConformanceTesting
import AppFlipMutants
import Foundation
import Testing

@Suite("Deployment targets: links a platform's URL parser cannot deliver")
struct DeliveryPlatformTests {
  static let link = "https://partner.example/appflip?client_id=c&state="

  /// The bundled app vectors with a link CFURL's pre-iOS 17 check refuses, found by rendering each.
  static let refused: Set<String> = Set(
    VectorLoader.loadBundled(.app).vectors.filter { loaded in
      let configuration = loaded.vector.configuration?.applied(to: .default) ?? .default
      return loaded.vector.steps.contains { step in
        guard let rendered = try? RenderedStep.render(step, with: configuration) else { return false }
        return DeliveryPlatform.legacyURLProblem(rendered.link) != nil
      }
    }.map(\.vector.id))

  /// The refused vectors and as many others: enough to see both kinds without running the corpus again.
  static var refusedAndOthers: VectorFilter {
    let others = VectorLoader.loadBundled(.app).vectors.map(\.vector.id).filter { !refused.contains($0) }
    return VectorFilter(idPatterns: refused.sorted() + others.prefix(refused.count))
  }

  @Test(
    "Before iOS 17, URL(string:) refuses what CFURL's RFC 1738/1808 check refuses",
    arguments: [
      ("s%zz", #"a broken percent-escape "%zz" at character 51"#),
      ("s%4", #"a broken percent-escape "%4" at character 51"#),
      ("s%", #"a broken percent-escape "%" at character 51"#),
      ("s\u{301}", "a raw U+0301 at character 51"),
      ("\u{E9}", "a raw U+00E9 at character 50"),
      ("a b", #"a raw " " (U+0020) at character 51"#),
      ("a|b", #"a raw "|" (U+007C) at character 51"#),
      ("a\"b", #"a raw "\"" (U+0022) at character 51"#),
      ("a#b#c", ##"a second "#" at character 53"##),
      ("\u{0}", "a raw U+0000 at character 50"),
    ])
  func legacyRefusals(_ state: String, _ reason: String) {
    #expect(DeliveryPlatform.legacyURLProblem(Self.link + state) == reason)
    #expect(DeliveryPlatform.ios16.undeliverable(Self.link + state)?.contains(reason) == true)
    #expect(DeliveryPlatform.ios17.undeliverable(Self.link + state) == nil)
    #expect(DeliveryPlatform.android.undeliverable(Self.link + state) == nil)
  }

  @Test("Before iOS 17, URL(string:) takes letters, digits, marks, reserved characters, brackets, %XX and one #")
  func legacyAccepts() {
    let link = Self.link + "A-z_0.9!~*'();/?:@&=+$,[]%2B%e9#frag"
    #expect(DeliveryPlatform.legacyURLProblem(link) == nil)
    #expect(DeliveryPlatform.ios16.undeliverable(link) == nil)
  }

  @Test("Before iOS 17, URL(string:) takes an ASCII character exactly when CFURL's table allows it")
  func legacyASCIITable() {
    let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.!~*'();/?:@&=+$,[]".utf8)
    let wrong = (UInt8(0)..<0x80).filter { byte in
      guard byte != UInt8(ascii: "%"), byte != UInt8(ascii: "#") else { return false }
      let link = Self.link + "a" + String(decoding: [byte], as: UTF8.self) + "b"
      return (DeliveryPlatform.legacyURLProblem(link) == nil) != allowed.contains(byte)
    }
    #expect(wrong.isEmpty, "\(wrong)")
  }

  @Test("iOS 17 refuses only a link without a valid scheme or with a space in its host")
  func ios17() {
    #expect(DeliveryPlatform.ios17.undeliverable("1http://a.example/")?.contains("no valid scheme") == true)
    #expect(DeliveryPlatform.ios17.undeliverable("https://a b.example/")?.contains("host") == true)
    #expect(DeliveryPlatform.ios17.undeliverable("https://a.example/?s=%zz \u{E9}") == nil)
  }

  @Test("--platform ios16 skips the bundled vectors iOS 16 cannot deliver, with the reason, and runs the rest")
  func ios16Run() async {
    let catalog = VectorLoader.loadBundled(.app)
    let adapter = InProcessAdapter(name: "reference") { ReferenceHandlerAdapter(configuration: $0) }
    let results = await Runner(adapter: adapter, platform: .ios16).run(catalog)
    let skipped = results.filter { $0.status == .skipped && $0.message.hasPrefix("cannot run on") }
    #expect(!skipped.isEmpty)
    #expect(results.count == catalog.vectors.count)
    #expect(results.allSatisfy { $0.status == .passed || $0.status == .skipped })
    for result in skipped {
      #expect(result.message.hasPrefix("cannot run on iOS before 17 (--platform ios16): "), "\(result.id)")
      #expect(result.message.contains("URL(string:) before iOS 17 (RFC 1738/1808) returns nil"), "\(result.id)")
    }
    // Exactly the vectors with a link CFURL's check refuses are skipped.
    #expect(Set(skipped.map(\.id)) == Self.refused)
    // iOS 17 and Android deliver them.
    let subset = VectorFilter(idPatterns: Self.refused.sorted()).apply(to: catalog)
    for platform in [DeliveryPlatform.ios17, .android] {
      let all = await Runner(adapter: adapter, platform: platform).run(subset)
      #expect(all.count == Self.refused.count && all.allSatisfy { $0.status == .passed }, "\(platform)")
      #expect(!all.contains { $0.message.hasPrefix("cannot run on") })
    }
  }

  @Test("The command line takes --platform, skips with the reason, and refuses an unknown target")
  func commandLine() async throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("platform-\(UUID().uuidString)")
    let report = folder.appendingPathComponent("junit.xml").path
    let captured = CapturedOutput()
    let code = await ConformanceCommand.run(
      ["--platform", "ios16", "--report", report] + Self.refusedAndOthers.idPatterns.flatMap { ["--filter", $0] },
      output: captured.output)
    #expect(code == .success)
    #expect(captured.out.contains("cannot run on iOS before 17 (--platform ios16)"))
    #expect(captured.out.contains(" 0 failed"))
    let xml = try String(contentsOfFile: report, encoding: .utf8)
    #expect(xml.contains("<skipped message=\"cannot run on iOS before 17"))

    let bad = CapturedOutput()
    let refused = await ConformanceCommand.run(["--platform", "ios15"], output: bad.output)
    #expect(refused == .usage)
    #expect(bad.err.contains("Option '--platform' got 'ios15'; give ios16, ios17 or android."))
  }

  @Test("ConformanceHarness takes the target and skips what it cannot deliver")
  func harness() async throws {
    let harness = ConformanceHarness(
      makeHandler: { ReferenceHandlerAdapter(configuration: $0) },
      filter: Self.refusedAndOthers, junit: nil, platform: .ios16)
    var statuses: [Status] = []
    for testCase in harness.cases {
      let result = await harness.run(testCase)
      statuses.append(result.status)
      if result.status == .skipped { #expect(result.message.contains("--platform ios16")) }
    }
    #expect(statuses.contains(.skipped) && statuses.contains(.passed))
    #expect(statuses.allSatisfy { $0 == .skipped || $0 == .passed })
  }

  @Test("A reply URL(string:) refuses before iOS 17 fails on ios16, and says so without a target")
  func replyByTarget() async throws {
    let mutant = try #require(Mutant.all.first { $0.name == "unencoded-reply" })
    let catalog = VectorLoader.loadBundled(.app)
    let adapter = InProcessAdapter(name: mutant.name) { AnyAppFlipHandler(mutant.make($0)) }

    let ios16 = await Runner(adapter: adapter, platform: .ios16).run(catalog)
    let unopenable = ios16.filter { $0.findings.contains { $0.field == "opened" } }
    #expect(!unopenable.isEmpty)
    for result in unopenable {
      let finding = try #require(result.findings.first { $0.field == "opened" })
      #expect(finding.rule == "AF-V-1" || finding.rule == "AF-V-2")
      #expect(finding.message.contains("Before iOS 17, URL(string:) returns nil for this reply"))
      #expect(result.status == (result.level == .must ? .failed : result.level == .should ? .warning : .passed))
    }

    // Without a target the same vectors run, and each says what iOS 16 would do: in its reply findings, or (when the
    // raw bytes read alike under both decodings and nothing else is wrong) in a MAY note that does not fail it.
    let subset = VectorFilter(idPatterns: unopenable.map(\.id)).apply(to: catalog)
    let untargeted = await Runner(adapter: adapter).run(subset)
    let note = "on that target (--platform ios16) the app opens nothing"
    #expect(untargeted.count == unopenable.count)
    for result in untargeted {
      #expect(result.findings.contains { $0.message.contains(note) }, "\(result.id)")
      #expect(!result.findings.contains { $0.field == "opened" && $0.level != .may }, "\(result.id)")
    }
    #expect(untargeted.contains { result in result.status == .passed && result.findings.contains { $0.level == .may } })

    // iOS 17 encodes what it must: no such finding.
    let ios17 = await Runner(adapter: adapter, platform: .ios17).run(subset)
    #expect(!ios17.contains { $0.findings.contains { $0.message.contains("iOS 17") } })
  }
}
