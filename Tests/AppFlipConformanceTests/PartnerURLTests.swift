import AppFlip
import AppFlipConformance
import AppFlipMutants
import Foundation
import Testing

/// A partner's own two redirect URLs, with the characters that trip encoders and comparisons in their paths: `+`,
/// `%2B` and `~` (allowed with `allowUnlistedRedirectUris`), in both orders.
enum PartnerURLs {
  static let urls = [
    "https://login.acme.example/appflip/return/home+ios%2Bbeta~1",
    "https://login.acme.example/appflip/return/home~ios%2Bprod+2",
  ]

  static let configurations = [urls, urls.reversed()].map { urls in
    PartnerConfiguration(
      clientID: "987654321098-acme.apps.googleusercontent.com", universalLink: "https://acme.example/appflip",
      allowList: RedirectAllowList(urls), allowsUnlistedRedirectURIs: true)
  }
}

/// The kill matrix under the partner's two URLs (every mutant in the first order; in the other, the three mutants this
/// configuration is for), computed once.
private enum PartnerURLRun {
  static let catalog = VectorLoader.loadBundled()
  static let mutants = ["first-configured-reply-url", "escape-case-folded-redirect", "dev-variant-redirect"]
  static let matrices = PartnerURLs.configurations.enumerated().map { order, configuration in
    Task {
      await KillMatrix.compute(
        order == 0 ? Mutant.all : Mutant.all.filter { mutants.contains($0.name) }, catalog: catalog,
        configuration: configuration)
    }
  }
}

@Suite("Every configured URL: a partner's own two, with +, %2B and ~ in their paths")
struct PartnerURLTests {
  @Test("The reference handler passes every bundled vector, whichever URL is listed first", arguments: [0, 1])
  func referencePasses(order: Int) async {
    let catches = await KillMatrix.catches(
      of: { ReferenceHandlerAdapter(configuration: $0) }, name: "reference", catalog: PartnerURLRun.catalog,
      configuration: PartnerURLs.configurations[order])
    #expect(catches.isEmpty, "\(catches.map { "\($0.id): \($0.status) \($0.message) \($0.findings.map(\.message))" })")
  }

  @Test(
    "A handler that answers at the first configured URL, one that folds escapes' hex case and one that admits URL + .dev fail",
    arguments: [0, 1], PartnerURLRun.mutants)
  func partnerMutantsFail(order: Int, mutant: String) async throws {
    let row = try #require(await PartnerURLRun.matrices[order].value.row(named: mutant))
    let failures = row.catches.filter { $0.status == .failed }
    #expect(failures.count >= 3, "\(mutant) fails only \(failures.map(\.id))")
  }

  @Test("Every mutant is caught by at least 3 vectors under the partner's two URLs")
  func margin() async {
    let matrix = await PartnerURLRun.matrices[0].value
    #expect(matrix.rows.count == Mutant.all.count)
    let thin = matrix.rows.filter { $0.catches.count < 3 }
    #expect(thin.isEmpty, "\(thin.map { "\($0.name) caught by \($0.catches.count): \($0.caughtBy)" })")
  }

  @Test(
    "A raw link writes a configured path so that one decoding gives it back: %2B stays %2B, + is not a space",
    arguments: [
      "redirect-uri/split/raw-unencoded-ampersand-code", "redirect-uri/split/raw-literal-fragment",
      "redirect-uri/smuggling/raw-ampersand-state-duplicates-state",
    ])
  func rawPartsKeepTheirBytes(id: String) throws {
    let vector = try #require(PartnerURLRun.catalog.vectors.first { $0.vector.id == id }?.vector)
    for url in PartnerURLs.urls {
      let step = try RenderedStep.render(vector.steps[0], with: PartnerURLs.configurations[0], redirectURI: url)
      let redirects = URLQuery(step.link).parameters(named: "redirect_uri")
      #expect(redirects.count == 1 && redirects[0].value == Array(url.utf8), "\(step.link)")
      #expect(redirects.first?.value == redirects[0].formValue)
    }
  }

  /// A Google Home partner: Google Home's production and sandbox URLs.
  static let googleHome = PartnerConfiguration(
    clientID: "987654321098-partner.apps.googleusercontent.com", universalLink: "https://partner.example/appflip",
    allowList: RedirectAllowList([
      "https://oauth-redirect.googleusercontent.com/a/com.google.Chromecast",
      "https://oauth-redirect-sandbox.googleusercontent.com/a/com.google.Chromecast",
    ]))

  @Test(
    "Each allowed URL is the one some vectors are accepted at and others attack",
    arguments: [PartnerConfiguration.default, googleHome] + PartnerURLs.configurations)
  func everyURLIsUsed(configuration: PartnerConfiguration) {
    var accepted: [String: Int] = [:]
    var attacked: [String: Int] = [:]
    for loaded in PartnerURLRun.catalog.vectors where loaded.profile == .app && loaded.vector.configuration == nil {
      guard case .success(let steps) = RenderedStep.render(loaded.vector, with: configuration) else { continue }
      for (step, template) in zip(steps, loaded.vector.steps) where "\(template.incoming)".contains("{redirect_uri") {
        if step.expect.verdict == .accepted && step.expect.reply?.base == step.redirectURI {
          accepted[step.redirectURI, default: 0] += 1
        } else if step.expect.verdict == .ignored {
          attacked[step.redirectURI, default: 0] += 1
        }
      }
    }
    for url in configuration.allowList.urls {
      #expect(accepted[url, default: 0] >= 3, "\(url) is accepted by \(accepted[url, default: 0]) vectors")
      #expect(attacked[url, default: 0] >= 3, "\(url) is attacked by \(attacked[url, default: 0]) vectors")
    }
  }

  @Test("A vector keeps its URL whatever else is selected, and --list shows it")
  func listShowsURL() async throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("partner-urls-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let config = folder.appendingPathComponent("acme.json")
    try JSONEncoder().encode(PartnerURLs.configurations[0]).write(to: config)
    let all = CapturedOutput()
    #expect(await ConformanceCommand.run(["--list", "--config", config.path], output: all.output) == .success)
    let lines = all.out.split(separator: "\n").map(String.init)
    for url in PartnerURLs.urls {
      #expect(lines.contains { $0.hasSuffix("with {redirect_uri} = \"\(url)\"") }, "no vector lists \(url)")
    }
    let baseline = try #require(lines.first { $0.hasPrefix("incoming/baseline-valid\t") })
    let one = CapturedOutput()
    let code = await ConformanceCommand.run(
      ["--list", "--config", config.path, "--filter", "incoming/baseline-valid", "--shard", "1/1"], output: one.output)
    #expect(code == .success && one.out == baseline)
  }

  @Test("The near-misses of a configured URL: an escape's hex case swapped, and a suffix the list uses elsewhere")
  func nearMisses() throws {
    func fill(_ template: String, _ configuration: PartnerConfiguration, _ url: String) throws -> String {
      try RenderedStep.render(
        Vector.Step(
          incoming: .params([.init("redirect_uri", template)], base: nil), outcome: nil,
          expect: Vector.Expectation(verdict: .ignored)), with: configuration, redirectURI: url
      ).link.components(separatedBy: "redirect_uri=")[1]
    }
    let partner = PartnerURLs.configurations[0]
    let first = PartnerURLs.urls[0]
    #expect(
      try fill("{redirect_uri|escape-hex-case}", partner, first)
        == PercentEncoding.encode(first.replacingOccurrences(of: "%2B", with: "%2b")))
    #expect(try fill("{redirect_uri|extended}", partner, first) == PercentEncoding.encode(first + ".dev"))
    // Under Google's twelve, Chromecast + ".dev" and + ".enterprise" are allowed: the vector takes the next URL.
    let google = PartnerConfiguration.default
    let chromecast = "https://oauth-redirect.googleusercontent.com/a/com.google.Chromecast"
    #expect(throws: RenderedStep.SkipReason.self) { try fill("{redirect_uri|extended}", google, chromecast) }
    #expect(
      try fill("{redirect_uri|extended}", google, chromecast + ".dev")
        == PercentEncoding.encode(chromecast + ".dev.dev"))
    // A partner list whose second URL extends the first lends its suffix.
    let nested = PartnerConfiguration(
      clientID: "c", universalLink: "https://acme.example/appflip",
      allowList: RedirectAllowList([first, first + "/sandbox"]), allowsUnlistedRedirectURIs: true)
    #expect(
      try fill("{redirect_uri|extended}", nested, first + "/sandbox")
        == PercentEncoding.encode(first + "/sandbox/sandbox"))
    #expect(throws: RenderedStep.SkipReason.self) { try fill("{redirect_uri|escape-hex-case}", google, chromecast) }
  }
}
