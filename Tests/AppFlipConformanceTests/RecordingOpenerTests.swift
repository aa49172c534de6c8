import AppFlip
import AppFlipConformance
import AppFlipConformanceTesting
import Foundation
import Testing

@Suite("Recording opener: AF-RE-9 from the options as passed")
struct RecordingOpenerTests {
  static let reply = "https://oauth-redirect.googleusercontent.com/a/com.google.OPA?code=c1&state=s1"

  /// The AF-RE-9 findings for a reply opened with `options`.
  func findings(_ options: [String: Any]) throws -> [Finding] {
    let opener = RecordingOpener()
    opener.open(try #require(URL(string: Self.reply)), options: options)
    let opened = try #require(opener.opened)
    return Judge.judge(Fixtures.successExpectation(), Observation(opened: opened, authorizationRequests: nil))
  }

  @Test("The real key set to true passes, and the opener records the URL and the options as passed")
  func realKey() throws {
    #expect(RecordingOpener.universalLinksOnlyKey == "UIApplicationOpenURLOptionUniversalLinksOnly")
    let opener = RecordingOpener()
    #expect(opener.opened == nil)
    opener.open(try #require(URL(string: Self.reply)), options: [RecordingOpener.universalLinksOnlyKey: true])
    #expect(opener.opened?.url == Self.reply)
    #expect(opener.opened?.universalLinksOnly == true)
    #expect(opener.opened?.options == ["UIApplicationOpenURLOptionUniversalLinksOnly": "true"])
    #expect(try findings([RecordingOpener.universalLinksOnlyKey: true]).isEmpty)
    #expect(try findings([RecordingOpener.universalLinksOnlyKey: 1]).isEmpty)
  }

  @Test(
    "A string key, a wrong key, a false value or no options fails AF-RE-9 naming what it saw",
    arguments: [
      (
        ["universalLinksOnly": true] as [String: any Sendable], #"["universalLinksOnly": true]"#,
        #"UIKit ignores the option key "universalLinksOnly""#
      ),
      (
        ["UIApplicationOpenURLOptionsUniversalLinksOnly": true],
        #"["UIApplicationOpenURLOptionsUniversalLinksOnly": true]"#,
        #"UIKit ignores the option key "UIApplicationOpenURLOptionsUniversalLinksOnly""#
      ),
      (
        ["UIApplicationOpenURLOptionUniversalLinksOnly": false],
        #"["UIApplicationOpenURLOptionUniversalLinksOnly": false]"#, "was passed as false; only true asks"
      ),
      (
        ["UIApplicationOpenURLOptionUniversalLinksOnly": "true"],
        #"["UIApplicationOpenURLOptionUniversalLinksOnly": "true"]"#, #"was passed as "true"; only true asks"#
      ),
      ([:], "no options", "opened without options"),
    ])
  func wrongOptions(_ options: [String: any Sendable], _ actual: String, _ message: String) throws {
    let found = try findings(options)
    #expect(found.map(\.rule) == ["AF-RE-9"])
    #expect(found.first?.field == "options")
    #expect(found.first?.expected == #"["UIApplicationOpenURLOptionUniversalLinksOnly": true]"#)
    #expect(found.first?.actual == actual)
    #expect(found.first?.message.contains(message) == true, "\(found.first?.message ?? "")")
  }

  @Test("Without recorded options, AF-RE-9 is judged from what the adapter reports, as before")
  func reportedFlag() {
    let judge = { (flag: Bool?) in
      Judge.judge(
        Fixtures.successExpectation(),
        Observation(opened: OpenedURL(url: Self.reply, universalLinksOnly: flag), authorizationRequests: nil))
    }
    #expect(judge(false).map(\.rule) == ["AF-RE-9"])
    #expect(judge(true).isEmpty)
    #expect(judge(nil).isEmpty)
  }

  @Test("Over the protocol, opened.options is judged by the harness: the string key fails, the real key passes")
  func protocolOptions() async {
    // Every fourth bundled vector: every area, without running the corpus twice more over the protocol.
    let all = VectorLoader.loadBundled(.app).vectors.map(\.vector.id)
    let catalog = VectorFilter(idPatterns: all.enumerated().filter { $0.offset % 4 == 0 }.map(\.element))
      .apply(to: VectorLoader.loadBundled(.app))
    let interleaved = Set(catalog.vectors.filter(\.vector.interleaved).map(\.vector.id))
    let stringKey = SubprocessAdapter(
      command: Subprocess.python("Tests/Fixtures/subprocess/options_handler.py", ["universalLinksOnly"]),
      timeout: Subprocess.patience)
    defer { stringKey.shutdown() }
    let failed = await Runner(adapter: stringKey, timeout: Subprocess.patience).run(catalog)
    #expect(failed.count == catalog.vectors.count)
    #expect(failed.filter { $0.status == .failed }.count > 60)
    for result in failed where result.status != .passed && result.status != .skipped {
      #expect(result.findings.allSatisfy { $0.rule == "AF-RE-9" } && !result.findings.isEmpty, "\(result.id)")
      #expect(result.findings.allSatisfy { $0.message.contains(#"UIKit ignores the option key "universalLinksOnly""#) })
    }

    let realKey = SubprocessAdapter(
      command: Subprocess.python(
        "Tests/Fixtures/subprocess/options_handler.py", ["UIApplicationOpenURLOptionUniversalLinksOnly"]),
      timeout: Subprocess.patience)
    defer { realKey.shutdown() }
    let passed = await Runner(adapter: realKey, timeout: Subprocess.patience).run(catalog)
    // Skipped: only those that do not apply to the configuration; protocol version 2 runs the interleaved ones too.
    #expect(passed.allSatisfy { $0.status == .passed || $0.status == .skipped })
    for result in passed where interleaved.contains(result.id) { #expect(result.status == .passed) }
    #expect(passed.filter { $0.status == .passed }.count > 60)
  }

  @Test("An adapter that declares universalLinksOnly false is not judged on AF-RE-9, even when it sends opened.options")
  func undeclaredCapability() async {
    let catalog = VectorFilter(idPatterns: ["incoming/baseline-valid", "reply/*"]).apply(
      to: VectorLoader.loadBundled(.app))
    let run = { (arguments: [String]) in
      let adapter = SubprocessAdapter(
        command: Subprocess.python("Tests/Fixtures/subprocess/options_handler.py", arguments),
        timeout: Subprocess.patience)
      defer { adapter.shutdown() }
      return await Runner(adapter: adapter, timeout: Subprocess.patience).run(catalog)
    }
    // The string key UIKit ignores: judged when the capability is declared, not when it is declared false.
    let declared = await run(["universalLinksOnly"])
    #expect(declared.filter { $0.status == .failed }.count > 40)
    let undeclared = await run(["universalLinksOnly", "undeclared"])
    #expect(undeclared.count == catalog.vectors.count && catalog.vectors.count > 40)
    #expect(undeclared.allSatisfy { $0.status == .passed }, "\(undeclared.filter { $0.status != .passed }.map(\.id))")
  }
}
