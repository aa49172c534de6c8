import AppFlip
import AppFlipConformance
import AppFlipConformanceTesting
import Foundation
import Testing

// MARK: - An app that reads the link as iOS hands it over: a `URL` (its code, written from Google's page)

/// App Flip as an iOS app writes it from Google's page, independently of the suite's reference handler: it takes the
/// `URL` iOS gives `application(_:continue:restorationHandler:)` (`userActivity.webpageURL`), reads the query Foundation
/// parsed, checks `redirect_uri` first, then `client_id` and `state`, asks its server for a code and opens
/// `redirect_uri` with the result.
struct URLAppFlipApp: Sendable {
  var clientID: String
  var allowedRedirects: [String]
  var authorize: @Sendable (AuthorizationRequest) async -> AuthorizationOutcome
  var open: @Sendable (URL, [String: Any]) -> Void

  func continueUserActivity(_ url: URL) async {
    // The query as Foundation parsed it, still percent-encoded, split on "&" and at the first "=" of each pair.
    var parameters: [String: [[UInt8]?]] = [:]
    for pair in Array((url.query(percentEncoded: true) ?? "").utf8).split(separator: UInt8(ascii: "&")) {
      let equals = pair.firstIndex(of: UInt8(ascii: "=")) ?? pair.endIndex
      guard let name = Self.decode(pair[..<equals]).flatMap(Bytes.utf8String) else { continue }
      parameters[name, default: []].append(Self.decode(pair[equals...].dropFirst()))
    }
    func single(_ name: String) -> [UInt8]? {
      guard let values = parameters[name], values.count == 1, let value = values[0], !value.isEmpty else { return nil }
      return value
    }
    // 1. redirect_uri exactly once, exactly one of the allowed URLs; otherwise open nothing.
    guard let redirect = single("redirect_uri"),
      let redirectURI = allowedRedirects.first(where: { Array($0.utf8) == redirect })
    else { return }
    let state = single("state").flatMap(Bytes.utf8String)
    func reply(_ items: [(String, String)]) {
      let query = items.map { "\($0)=\(Self.encode($1))" }.joined(separator: "&")
      if let url = URL(string: redirectURI + "?" + query) { open(url, [OpenedURL.universalLinksOnlyOption: true]) }
    }
    let invalid = [("error", "invalid_request")] + (state.map { [("state", $0)] } ?? [])
    // 2. client_id is Google's, byte for byte; state is there once; no parameter twice; scope decodes.
    let scopes: [String?] = (parameters["scope"] ?? []).map { $0.flatMap(Bytes.utf8String) }
    let once = ["client_id", "state", "scope"].allSatisfy { (parameters[$0]?.count ?? 0) <= 1 }
    guard single("client_id") == Array(clientID.utf8), let state, once, !scopes.contains(nil) else {
      return reply(invalid)
    }
    // 3. The code, for the scopes Google asked for; 4. the answer at redirect_uri.
    let request = AuthorizationRequest(
      clientID: clientID, redirectURI: redirectURI,
      scopes: (scopes.first ?? "")?.split(separator: " ").map(String.init) ?? [])
    switch await authorize(request) {
    case .granted(let code): reply([("code", code), ("state", state)])
    case .signInFailed, .offline, .timedOut: reply([("error", "cancelled"), ("state", state)])
    case .accountDisabled: reply([("error", "unrecoverable"), ("state", state)])
    case .consentDenied: reply([("error", "access_denied"), ("state", state)])
    }
  }

  /// The bytes of a percent-encoded value (RFC 3986: `+` stays `+`); `nil` for a broken escape.
  static func decode(_ text: some Collection<UInt8>) -> [UInt8]? {
    var bytes: [UInt8] = []
    var iterator = text.makeIterator()
    while let byte = iterator.next() {
      guard byte == UInt8(ascii: "%") else {
        bytes.append(byte)
        continue
      }
      guard let high = iterator.next().flatMap({ UInt8(String(UnicodeScalar($0)), radix: 16) }),
        let low = iterator.next().flatMap({ UInt8(String(UnicodeScalar($0)), radix: 16) })
      else { return nil }
      bytes.append(high << 4 | low)
    }
    return bytes
  }

  static let unreserved = CharacterSet(
    charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")

  /// A reply value with every byte but the unreserved ones encoded, so every decoder reads it alike.
  static func encode(_ value: String) -> String {
    value.addingPercentEncoding(withAllowedCharacters: unreserved) ?? ""
  }
}

// MARK: - Its adapter, as Docs/HANDLERS.md "A handler that takes a URL" shows

/// Runs the URL-taking app under the harness: the link, as the target platform delivers it, becomes the `URL` iOS would
/// hand over.
struct URLAppFlipAdapter: AppFlipHandler {
  let configuration: PartnerConfiguration

  func handle(_ link: String, authorizer: Authorizer) async throws -> OpenedURL? {
    guard let url = URL(string: link) else { return nil }  // iOS hands over no URL: the app never runs
    let opener = RecordingOpener()
    let app = URLAppFlipApp(
      clientID: configuration.clientID, allowedRedirects: configuration.allowList.urls,
      authorize: { await authorizer.requestCode($0) }, open: { opener.open($0, options: $1) })
    await app.continueUserActivity(url)
    return opener.opened
  }
}

@Suite("A handler that takes the URL iOS hands over")
struct URLHandlerTests {
  static let catalog = VectorLoader.loadBundled(.app)

  @Test(
    "Passes every bundled vector on iOS 16 and iOS 17, reading the link through Foundation's URL",
    arguments: [DeliveryPlatform.ios16, .ios17])
  func passesOnPlatform(platform: DeliveryPlatform) async {
    for configuration in [PartnerConfiguration.default] + PartnerURLs.configurations {
      let adapter = InProcessAdapter(name: "url-app") { URLAppFlipAdapter(configuration: $0) }
      let results = await Runner(
        adapter: adapter, configuration: configuration, timeout: verdictTestTimeout, platform: platform
      ).run(Self.catalog)
      let bad = results.filter { $0.status != .passed && $0.status != .skipped }
      #expect(bad.isEmpty, "\(bad.map { "\($0.id): \($0.status) \($0.findings.map(\.message))" })")
      #expect(results.count { $0.status == .passed } > 400)
    }
  }

  @Test("Without a target it is given the link as sent, which URL(string:) encodes again: the reason for --platform")
  func needsPlatform() async throws {
    let adapter = InProcessAdapter(name: "url-app") { URLAppFlipAdapter(configuration: $0) }
    let subset = VectorFilter(idPatterns: ["malformed/state-broken-escape-*"]).apply(to: Self.catalog)
    let untargeted = await Runner(adapter: adapter).run(subset)
    #expect(untargeted.count == 4 && untargeted.allSatisfy { $0.status == .failed })
    let ios17 = await Runner(adapter: adapter, platform: .ios17).run(subset)
    #expect(ios17.allSatisfy { $0.status == .passed })
  }
}
