import AppFlip
import Foundation
import Testing

@testable import AppFlipConformance
@testable import AppFlipConformanceTesting

/// Issue 23, items 1 and 2: a failure a partner can act on. Every report shows the link as sent (whole, past 240
/// characters), the link as the target platform delivered it, the vector's description and rules, the scripted outcome,
/// what the implementation did, and the one command that runs the vector again; `--quiet` lists each failing id.
@Suite("Evidence of a failure in every report")
struct EvidenceTests {
  let folder: URL = {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("evidence-\(UUID().uuidString)")
    try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
  }()

  static let description = "A state of 300 characters comes back byte for byte, the fragment left out."
  static let state = String(repeating: "s", count: 300)

  /// A vector whose link is over 240 characters, with a fragment iOS 17 delivers encoded, expecting a state the
  /// reference handler does not return: it fails under every platform.
  static var vector: String {
    """
    {"id": "t/long-link", "description": "\(description)", "spec": ["s"], "rules": ["AF-RE-2"], "level": "must",
     "incoming": {"raw": "{universal_link}?client_id={client_id}&scope=devices&state=\(state)&redirect_uri=https%3A%2F%2Foauth-redirect.googleusercontent.com%2Fa%2Fcom.google.OPA#a b"},
     "outcome": {"result": "granted", "code": "c1"},
     "expect": {"verdict": "accepted",
                "authorization": {"clientId": "{client_id}", "redirectUri": "\(Fixtures.redirect)", "scopes": ["devices"]},
                "reply": {"base": "\(Fixtures.redirect)", "code": "c1", "state": "other"}}}
    """
  }

  /// The link as Google's app sends it under the default configuration.
  static var link: String {
    let configuration = PartnerConfiguration.default
    return "\(configuration.universalLink)?client_id=\(configuration.clientID)&scope=devices&state=\(state)"
      + "&redirect_uri=https%3A%2F%2Foauth-redirect.googleusercontent.com%2Fa%2Fcom.google.OPA#a b"
  }

  /// Text read back from XML content or attributes.
  static func unescaped(_ xml: String) -> String {
    xml.replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&lt;", with: "<")
      .replacingOccurrences(of: "&gt;", with: ">").replacingOccurrences(of: "&amp;", with: "&")
  }

  @Test("The console, JUnit, JSON and Markdown show the whole link, its delivered form, description and reproduce line")
  func everyReport() async throws {
    #expect(Self.link.count > 240)
    let vectors = folder.appendingPathComponent("mine.json")
    try Fixtures.file([Self.vector]).write(to: vectors)
    let (junit, json, markdown) = (
      folder.appendingPathComponent("r.xml"), folder.appendingPathComponent("r.json"),
      folder.appendingPathComponent("r.md")
    )
    let captured = CapturedOutput()
    let code = await ConformanceCommand.run(
      [
        "--no-bundled", "--vectors", vectors.path, "--platform", "ios17", "--jobs", "2", "--report", junit.path,
        "--json", json.path, "--markdown", markdown.path,
      ], output: captured.output)
    #expect(code == .failure)

    let document = try JSONResultsReport.read(from: json)
    let evidence = try #require(document.results.first?.evidence)
    let step = try #require(evidence.steps.first)
    #expect(step.link == Self.link)
    #expect(step.delivered == Self.link.replacingOccurrences(of: "#a b", with: "#a%20b"))
    #expect(step.outcome == "granted, code \"c1\"")
    #expect(step.did.hasPrefix("opened \"\(Fixtures.redirect)?code=c1&state=\(Self.state)\""))
    #expect(evidence.description == Self.description)
    #expect(evidence.rules.map(\.id) == ["AF-RE-2"] && evidence.rules[0].level == "MUST")
    let reproduce =
      "swift run appflip-conformance --no-bundled --vectors \(vectors.path) --platform ios17 --filter 't/long-link'"
    #expect(evidence.reproduce == reproduce)

    let lines = [
      "checks:    \(Self.description)", "link:      \"\(Self.link)\"",
      "delivered: \"\(Self.link.replacingOccurrences(of: "#a b", with: "#a%20b"))\"", "reproduce: \(reproduce)",
    ]
    let reports = [
      ("console", captured.out), ("JUnit", Self.unescaped(try String(contentsOf: junit, encoding: .utf8))),
      ("Markdown", try String(contentsOf: markdown, encoding: .utf8)),
    ]
    for (name, text) in reports {
      for line in lines { #expect(text.contains(line), "the \(name) report lacks \(line.prefix(60))") }
    }
  }

  @Test("--list shows a link past 240 characters whole, as the evidence does")
  func listWhole() async throws {
    let vectors = folder.appendingPathComponent("mine.json")
    try Fixtures.file([Self.vector]).write(to: vectors)
    let captured = CapturedOutput()
    #expect(
      await ConformanceCommand.run(["--no-bundled", "--vectors", vectors.path, "--list"], output: captured.output)
        == .success)
    #expect(captured.out.contains("\t" + "accepted \"\(Self.link)\""), "\(captured.out)")
  }

  @Test("--quiet prints one line per vector that did not pass: label, id, level and first finding, then the counts")
  func quiet() async throws {
    let wrong = Fixtures.accepted(id: "t/fails-too").replacingOccurrences(
      of: "\"state\": \"s1\"}", with: "\"state\": \"s2\"}")
    let vectors = folder.appendingPathComponent("mine.json")
    try Fixtures.file([Self.vector, Fixtures.accepted(id: "t/passes"), wrong]).write(to: vectors)
    let captured = CapturedOutput()
    let code = await ConformanceCommand.run(
      ["--no-bundled", "--vectors", vectors.path, "--quiet", "--report", folder.appendingPathComponent("r.xml").path],
      output: captured.output)
    #expect(code == .failure)
    let lines = captured.out.split(separator: "\n")
    #expect(lines.count == 3, "\(captured.out)")
    #expect(lines.first { $0.hasPrefix("FAIL t/long-link [must] reply.state [AF-RE-2, MUST] ") } != nil)
    #expect(lines.first { $0.hasPrefix("FAIL t/fails-too [must] reply.state [AF-RE-2, MUST] ") } != nil)
    #expect(lines.last == "3 vectors: 1 passed, 2 failed, 0 warnings, 0 skipped, 0 errors")
  }

  @Test("The Swift Testing harness's issue shows the evidence, and how to run that one case again")
  func harnessIssue() async throws {
    let vectors = folder.appendingPathComponent("mine.json")
    try Fixtures.file([Self.vector]).write(to: vectors)
    let harness = ConformanceHarness(
      handler: ReferenceHandlerAdapter(), vectors: [vectors], bundled: false, junit: nil, platform: .ios17)
    let result = await harness.run(try #require(harness.cases.first))
    #expect(result.status == .failed)
    for line in [
      "checks:    \(Self.description)", "link:      \"\(Self.link)\"",
      "reproduce: APPFLIP_FILTER='t/long-link' swift test --filter harnessIssue",
    ] {
      #expect(result.details.contains(line), "the issue lacks \(line.prefix(60)):\n\(result.details)")
    }
  }

  /// Answers the first link of a vector as the reference handler does, and never answers the second.
  struct HangsOnSecondLink: AppFlipHandler {
    let seen = Locked(0)

    func handle(_ link: String, authorizer: Authorizer) async throws -> OpenedURL? {
      if seen.withLock({
        $0 += 1
        return $0
      }) > 1 {
        try await Task.sleep(for: .seconds(3600))
      }
      return try await ReferenceHandlerAdapter().handle(link, authorizer: authorizer)
    }
  }

  @Test("A vector whose step times out keeps its evidence: both links as sent and delivered, what the first one did")
  func timedOutEvidence() async throws {
    let loaded = try #require(
      VectorLoader.decode(Fixtures.file([Self.vector]), displayPath: "mine.json").vectors.first)
    var vector = loaded.vector
    vector.steps = [vector.steps[0], vector.steps[0]]
    let runner = Runner(
      adapter: InProcessAdapter(name: "hangs") { _ in HangsOnSecondLink() }, timeout: 0.5, platform: .ios17)
    let result = await runner.run(LoadedVector(vector: vector, file: "mine.json", area: "t"))
    #expect(result.status == .error && result.message.hasPrefix("step 1: the implementation did not answer"))
    let evidence = try #require(result.evidence)
    #expect(evidence.description == Self.description)
    #expect(evidence.steps.map(\.link) == [Self.link, Self.link])
    #expect(
      evidence.steps.map(\.delivered)
        == Array(repeating: Self.link.replacingOccurrences(of: "#a b", with: "#a%20b"), count: 2))
    #expect(evidence.steps[0].did.hasPrefix("opened \"\(Fixtures.redirect)?code=c1&state=\(Self.state)\""))
    #expect(evidence.steps[1].did == "did not answer (see above)")
  }

  @Test("The reproduce command keeps what decides the test, in order, and leaves out selections, reports and secrets")
  func reproduceCommand() throws {
    let options = try CommandLineOptions.parse([
      "--endpoint", "http://127.0.0.1:9/auth", "--header", "Authorization: Bearer s3cret", "--cookie", "sid=s3cret",
      "--shard", "2/3", "--report", "r.xml", "--jobs", "4", "--tag", "x", "--config", "my config.json", "--strict",
      "--pkce", "--quiet",
    ])
    #expect(
      options.reproduceCommand(program: "appflip-conformance")("endpoint/a*b")
        == "appflip-conformance --endpoint http://127.0.0.1:9/auth --header 'Authorization: <redacted>'"
        + " --cookie 'sid=<redacted>' --config 'my config.json' --strict --pkce --filter 'endpoint/a\\*b'")
  }
}
