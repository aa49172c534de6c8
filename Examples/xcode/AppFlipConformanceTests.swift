// The App Flip conformance suite in an iOS app's unit-test target: every bundled vector is its own Swift Testing test
// case, run against the app's own App Flip code. See README.md in this folder.
//
// Adapt the three marked places: the app module, the adapter's body (your handler's API), and your configuration.

import AppFlip
import AppFlipConformance
import AppFlipConformanceTesting
import Foundation
import Testing

@testable import AcmeApp  // ← 1. your app module

// MARK: - The adapter: the app's App Flip code, with the harness standing in for its OAuth client and for
// UIApplication.shared.open.

/// Runs Acme's App Flip code under the conformance harness.
struct AcmeAppFlipAdapter: AppFlipHandler {
  let configuration: PartnerConfiguration

  // ← 2. build your handler the way the app does, from `configuration`, with its two seams replaced.
  func handle(_ link: String, authorizer: Authorizer) async throws -> OpenedURL? {
    let opener = RecordingOpener()  // AppFlipConformanceTesting's: records the options exactly as passed
    let coordinator = AcmeAppFlipCoordinator(
      googleClientID: configuration.clientID,
      allowedRedirects: configuration.allowList.urls,
      oauth: { request in  // the app's OAuth client, scripted by the vector
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

// MARK: - The suite

// ← 3. Google's client id for your app, your App Flip universal link, and the redirect URLs you accept.
let acmeAppFlipConfiguration = PartnerConfiguration(
  clientID: "123456789012-acme.apps.googleusercontent.com",
  universalLink: "https://acme.example/appflip")

/// Where the JUnit report goes. A test on the simulator does not run in your project folder, so the path is absolute:
/// `APPFLIP_JUNIT` from the scheme (or `TEST_RUNNER_APPFLIP_JUNIT` given to xcodebuild), else `Reports/` next to
/// this file's folder on the Mac that built it; an empty `APPFLIP_JUNIT` writes no report. On a device, which cannot
/// write to your Mac, the report goes to the test host's temporary folder.
let acmeAppFlipJUnitPath: String? = {
  if let path = ProcessInfo.processInfo.environment["APPFLIP_JUNIT"] { return path.isEmpty ? nil : path }
  #if targetEnvironment(simulator) || os(macOS)
    return URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("Reports/appflip-conformance.xml").path
  #else
    return FileManager.default.temporaryDirectory.appendingPathComponent("appflip-conformance.xml").path
  #endif
}()

/// Every bundled vector, run against the app's handler built for each vector's configuration.
let acmeAppFlip = ConformanceHarness(
  makeHandler: { AcmeAppFlipAdapter(configuration: $0) }, configuration: acmeAppFlipConfiguration,
  junit: acmeAppFlipJUnitPath, platform: .ios16)  // ← your deployment target: .ios16 (before 17) or .ios17

@Suite("App Flip conformance")
struct AppFlipConformanceTests {
  @Test("App Flip vector", arguments: acmeAppFlip.cases)
  func appFlipConformance(_ vector: ConformanceCase) async {
    await acmeAppFlip.check(vector)
  }
}
