import AppFlip
import AppFlipConformance
import AppFlipConformanceTesting
import AppFlipReference
import Foundation
import Testing

// MARK: - A partner's app code, as the README imagines it (Acme's, not the suite's)

/// What Acme's OAuth client answers.
enum AcmeOAuthResult: Sendable {
  case code(String)
  case failed(AcmeOAuthFailure)
}

/// Why Acme's OAuth client failed.
enum AcmeOAuthFailure: Sendable {
  case network, disabled, denied
}

/// Acme's App Flip coordinator: validates the link, asks Acme's OAuth client for a code, opens Google's link.
struct AcmeAppFlipCoordinator: Sendable {
  var googleClientID: String
  var allowedRedirects: [String]
  var oauth: @Sendable (AuthorizationRequest) async -> AcmeOAuthResult
  var open: @Sendable (_ url: URL, _ options: [String: Any]) -> Void

  func continueUserActivity(_ link: String) async {
    let handler = AppFlipReferenceHandler(
      configuration: AppFlipConfiguration(clientID: googleClientID, allowList: RedirectAllowList(allowedRedirects)))
    let opened = await handler.handle(link) { request in
      switch await oauth(request) {
      case .code(let code): .granted(code: code)
      case .failed(.network): .offline
      case .failed(.disabled): .accountDisabled
      case .failed(.denied): .consentDenied
      }
    }
    // Acme passes the real key: `[.universalLinksOnly: true]` on iOS, whose raw value this is.
    if let opened, let url = URL(string: opened.url) { open(url, [OpenedURL.universalLinksOnlyOption: true]) }
  }
}

// MARK: - The adapter, exactly as in README.md

/// Runs Acme's App Flip code under the conformance harness.
struct AcmeAppFlipAdapter: AppFlipHandler {
  let configuration: PartnerConfiguration

  func handle(_ link: String, authorizer: Authorizer) async throws -> OpenedURL? {
    let opener = RecordingOpener()  // stands in for UIApplication.shared.open; records the options as passed
    let coordinator = AcmeAppFlipCoordinator(
      googleClientID: configuration.clientID,
      allowedRedirects: configuration.allowList.urls,
      oauth: { request in  // stands in for Acme's OAuth client
        switch await authorizer.requestCode(request) {
        case .granted(let code): .code(code)
        case .signInFailed, .offline, .timedOut: .failed(.network)
        case .accountDisabled: .failed(.disabled)
        case .consentDenied: .failed(.denied)
        }
      },
      open: { url, options in opener.open(url, options: options) })
    await coordinator.continueUserActivity(link)
    return opener.opened
  }
}

// MARK: - The partner's five lines, as in README.md

let acmeAppFlip = ConformanceHarness(makeHandler: { AcmeAppFlipAdapter(configuration: $0) }, junit: nil)

@Suite("README example")
struct ReadmeExampleTests {
  @Test("A partner adapter written as the README shows runs every bundled vector", arguments: acmeAppFlip.cases)
  func appFlipConformance(_ vector: ConformanceCase) async {
    await acmeAppFlip.check(vector)
  }
}

@Suite("README adapters")
struct ReadmeAdapterTextTests {
  static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()

  @Test("Every adapter in README.md and Docs/HANDLERS.md runs verbatim in this test target, with only its imports")
  func adaptersAreVerbatim() throws {
    let root = Self.folder.deletingLastPathComponent().deletingLastPathComponent()
    let readme = try ["README.md", "Docs/HANDLERS.md"].map {
      try String(contentsOf: root.appendingPathComponent($0), encoding: .utf8)
    }.joined(separator: "\n")
    let sources = try ["ReadmeExampleTests.swift", "HandlerShapeTests.swift", "URLHandlerTests.swift"].map {
      try String(contentsOf: Self.folder.appendingPathComponent($0), encoding: .utf8)
    }
    let blocks = readme.components(separatedBy: "```swift\n").dropFirst().map { $0.components(separatedBy: "```")[0] }
    let adapters = blocks.filter { $0.contains(": AppFlipHandler {") }
    #expect(adapters.count == 4)
    for block in adapters {
      let lines = block.split(separator: "\n", omittingEmptySubsequences: false)
      let imports = lines.filter { $0.hasPrefix("import ") }
      let body = lines.filter { !$0.hasPrefix("import ") }.joined(separator: "\n")
        .trimmingCharacters(in: .whitespacesAndNewlines)
      let home = sources.first { $0.contains(body) }
      #expect(home != nil, "README adapter not found verbatim in the tests:\n\(body)")
      for line in imports { #expect(home?.contains(line + "\n") == true, "\(line)") }
    }
  }
}
