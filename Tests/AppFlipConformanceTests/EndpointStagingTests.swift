import AppFlip
import Foundation
import Testing

@testable import AppFlipConformance

/// Issue 9, item 2: the preflight's diagnosis read from the answer, and the inconclusive status in every report.
@Suite("Endpoint preflight and the inconclusive status")
struct EndpointPreflightTests {
  static let requestURL = URL(string: "http://127.0.0.1:8080/oauth/authorize?state=appflip-preflight")!
  static let redirect = "https://oauth-redirect.googleusercontent.com/a/com.google.OPA"

  func diagnose(
    _ status: Int, _ location: String?, _ body: String = "", cookie: Bool = false,
    parameters: [(String, String)] = []
  ) -> String {
    let answer = EndpointAnswer(status: status, location: location, body: Array(body.utf8))
    switch EndpointPreflight.diagnose(
      answer, requestURL: Self.requestURL, redirectURI: Self.redirect, cookieSent: cookie, parameters: parameters)
    {
    case .proven: return "proven"
    case .refused(let diagnosis): return "refused: " + diagnosis
    case .failed(let diagnosis), .unanswered(let diagnosis): return diagnosis
    }
  }

  @Test("A code at the redirect URL proves the session; a code elsewhere, or an empty code, does not")
  func proven() {
    #expect(diagnose(302, Self.redirect + "?code=abc&state=appflip-preflight") == "proven")
    #expect(diagnose(302, Self.redirect + "?code=&state=appflip-preflight") != "proven")
    #expect(diagnose(302, "https://evil.example/?code=abc") != "proven")
  }

  @Test("A login page says whether a cookie was sent")
  func login() {
    #expect(diagnose(302, "/login?next=%2Foauth").hasPrefix("no session cookie was sent"))
    #expect(diagnose(302, "/accounts/login/?next=x", cookie: true).hasPrefix("a session cookie was sent, but"))
    #expect(diagnose(200, nil, "<form><input type=\"password\" name=p></form>").hasPrefix("no session cookie"))
  }

  @Test("A consent page, PKCE required and a refused scope are each named, with the option that helps")
  func causes() {
    #expect(
      diagnose(200, nil, "<h1>Authorize Google?</h1><form><button>Allow</button></form>").contains("consent page"))
    #expect(
      diagnose(302, Self.redirect + "?error=invalid_request&error_description=Code+challenge+required.")
        .contains("--pkce"))
    #expect(diagnose(400, nil, "<p>Missing code_challenge</p>").contains("--pkce"))
    #expect(diagnose(302, Self.redirect + "?error=invalid_scope&state=s").contains("--scope"))
    #expect(diagnose(302, Self.redirect + "?error=consent_required").contains("consent page"))
  }

  @Test("Otherwise the server's own error text is quoted without its markup")
  func ownText() {
    let diagnosis = diagnose(400, nil, "<html><style>p{}</style><body><h1>Error:</h1> <p>Mismatching redirect URI.</p>")
    #expect(
      diagnosis.hasPrefix(
        "refused: the server answered HTTP 400 without a redirect: \"Error: Mismatching redirect URI.\""))
    #expect(diagnosis.contains("register the twelve App Flip redirect URLs"))
  }

  @Test("A redirect back to the endpoint is a loop, never a consent page; a 404 names --endpoint, a 401 the session")
  func loopAndStatus() {
    for location in ["/oauth/authorize?state=appflip-preflight", "/oauth/authorize?step=2"] {
      let diagnosis = diagnose(302, location, cookie: true)
      #expect(diagnosis.contains("a loop") && !diagnosis.contains("consent"), "\(diagnosis)")
    }
    #expect(diagnose(404, nil, "Not Found").contains("check that --endpoint names"))
    #expect(diagnose(401, nil, "Unauthorized").contains("--login-command"))
  }

  @Test("A login page whose link names a continue parameter names --param with it, unless it was sent")
  func continueParameter() {
    let location = "/login.html?callback_url=%2Fapi%2Foidc%2Fauth%3Fscope%3Dopenid%26g_continue&client_id=x"
    let diagnosis = diagnose(302, location, cookie: true)
    #expect(diagnosis.contains("names the parameter \"g_continue\"") && diagnosis.contains("--param g_continue="))
    let sent = diagnose(302, location, cookie: true, parameters: [("g_continue", "")])
    #expect(!sent.contains("--param g_continue") && sent.contains("still asks the test user to sign in"), "\(sent)")
  }

  @Test("consent_required to prompt=none names consenting, not the prompt=none the request already carried")
  func promptNone() {
    let reply = Self.redirect + "?error=consent_required&state=appflip-preflight"
    #expect(diagnose(302, reply).contains("--param prompt=none"))
    let sent = diagnose(302, reply, parameters: [("prompt", "none")])
    #expect(!sent.contains("pass the server's own flag") && sent.contains("consent once with that session"), "\(sent)")
  }

  @Test("Two Location headers are the server's refusal (AF-EP-6), never a proven session")
  func brokenHeaders() {
    let code = Self.redirect + "?code=abc&state=appflip-preflight"
    let answer = EndpointAnswer(status: 302, locations: [code, code], rawControl: nil, body: [UInt8]())
    guard
      case .refused(let diagnosis) = EndpointPreflight.diagnose(
        answer, requestURL: Self.requestURL, redirectURI: Self.redirect, cookieSent: true)
    else {
      Issue.record("two Location headers proved the session")
      return
    }
    #expect(diagnosis.contains("2 Location headers") && diagnosis.contains("AF-EP-6"))
  }

  static let inconclusive = VectorResult(
    id: "endpoint/refused/case/host-mixed", area: "endpoint-redirect-uri", file: "Vectors/endpoint/redirect-uri.json",
    level: .must, status: .inconclusive, message: "the server answered with its own page, and no signed-in request …")

  @Test("Inconclusive is never passed: counted apart, fails the gate, shown in console, JUnit, Markdown and JSON")
  func reports() throws {
    let summary = RunSummary([Self.inconclusive])
    #expect(summary.inconclusive == 1 && summary.passed == 0 && summary.total == 1)
    #expect(!summary.isSuccess)
    #expect(ConsoleReport.render([Self.inconclusive]).contains("INCONCLUSIVE endpoint/refused/case/host-mixed"))
    let xml = JUnitReport.render([Self.inconclusive], implementation: "x")
    #expect(xml.contains("<error type=\"inconclusive\" message=\"inconclusive: the server answered"))
    #expect(xml.contains("errors=\"1\" skipped=\"0\""))
    let markdown = MarkdownReport.render([Self.inconclusive], implementation: "x", configuration: .default)
    #expect(markdown.contains("### Inconclusive") && markdown.contains("1 vector inconclusive"))
    #expect(markdown.contains("| skipped | errors | inconclusive | total |") && markdown.contains("| 0 | 0 | 1 | 1 |"))
    let document = JSONResultsReport.Document(
      results: [Self.inconclusive], implementation: .init(name: "x"), configuration: .default, startedAt: Date())
    let value = try JSONDecoder().decode(JSONValue.self, from: ReportFile.json(document))
    let schema = try JSONDecoder().decode(JSONValue.self, from: Data(contentsOf: JSONResultsReportTests.schemaURL))
    #expect(SchemaCheck.problems(of: value, against: schema) == [])
  }

  @Test("An inconclusive result is never written as a waiver, and a waiver neither hides it nor goes stale on it")
  func waivers() throws {
    #expect(WaiverFile.adopting([Self.inconclusive], date: "2026-11-23").waivers.isEmpty)
    let file = WaiverFile(waivers: [Waiver(id: "endpoint/refused/*", reason: "known")])
    #expect(file.apply(to: Self.inconclusive, file: "w.json").status == .inconclusive)
  }
}

/// Issue 9, item 3: what a staging server needs.
@Suite("Endpoint options for a staging server")
struct EndpointStagingTests {
  static let link =
    "https://partner.example/appflip?response_type=code&client_id=c&redirect_uri=https%3A%2F%2Fx&scope=devices&state=s"

  @Test("--param values are appended, encoded, and --scope replaces only the default scope")
  func parametersAndScope() throws {
    let adapter = EndpointAdapter(
      endpoint: URL(string: "http://127.0.0.1:1/authorize")!, headers: [], timeout: 1,
      parameters: [("g_continue", ""), ("prompt", "consent x")], scope: "openid profile", pkce: false)
    #expect(
      try adapter.requestURL(for: Self.link).absoluteString
        == "http://127.0.0.1:1/authorize?response_type=code&client_id=c&redirect_uri=https%3A%2F%2Fx"
        + "&scope=openid%20profile&state=s&g_continue=&prompt=consent%20x")
    let unknownScope = "https://partner.example/appflip?scope=unknown-scope&state=s"
    #expect(try adapter.requestURL(for: unknownScope).absoluteString.contains("scope=unknown-scope&"))
  }

  @Test("--pkce sends a fresh S256 challenge with every request")
  func pkce() throws {
    let adapter = EndpointAdapter(
      endpoint: URL(string: "http://127.0.0.1:1/authorize")!, headers: [], timeout: 1, parameters: [], scope: nil,
      pkce: true)
    let first = try adapter.requestURL(for: Self.link).absoluteString
    let second = try adapter.requestURL(for: Self.link).absoluteString
    #expect(first.hasSuffix("&code_challenge_method=S256"))
    #expect(first.contains("&code_challenge=") && first != second)
    // RFC 7636 Appendix B.
    #expect(
      EndpointPKCE(verifier: "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk").challenge
        == "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM")
    #expect(EndpointPKCE().verifier.count == 43)
  }

  static let jar = """
    # Netscape HTTP Cookie File
    127.0.0.1\tFALSE\t/\tFALSE\t0\tsession\tabc
    #HttpOnly_127.0.0.1\tFALSE\t/oauth\tFALSE\t0\tcsrf\tt1
    127.0.0.1\tFALSE\t/admin\tFALSE\t0\tadmin\tno
    127.0.0.1\tFALSE\t/\tTRUE\t0\tsecure\tno
    127.0.0.1\tFALSE\t/\tFALSE\t1\texpired\tno
    .example.com\tTRUE\t/\tFALSE\t0\tother\tno

    """

  @Test("A cookie jar sends the cookies of the endpoint's host and path, not secure ones over http, not expired ones")
  func cookieJar() throws {
    let jar = try EndpointCookieJar(text: Self.jar, file: "jar.txt")
    #expect(jar.header(for: URL(string: "http://127.0.0.1:8000/oauth/authorize")!) == "session=abc; csrf=t1")
    #expect(jar.header(for: URL(string: "http://login.example.com/x")!) == "other=no")
    #expect(throws: EndpointJarError.malformedLine(file: "jar.txt", line: 1, text: "session=abc")) {
      try EndpointCookieJar(text: "session=abc", file: "jar.txt")
    }
  }

  @Test("The staging options parse in one block and need --endpoint")
  func options() throws {
    let options = try CommandLineOptions.parse([
      "--endpoint", "http://h/", "--param", "prompt=consent", "--scope", "openid", "--pkce", "--cookie-file", "j",
      "--login-command", "true", "--cacert", "ca.pem", "--no-preflight",
    ])
    #expect(
      options.endpointStaging
        == EndpointStagingOptions(
          parameters: ["prompt=consent"], scope: "openid", pkce: true, cookieFile: "j", loginCommand: "true",
          caCertificate: "ca.pem", preflight: false))
    #expect(throws: UsageError.conflict("--pkce", "the app profile; it needs --endpoint")) {
      try CommandLineOptions.parse(["--pkce"])
    }
    #expect(throws: UsageError.conflict("--cacert", "the app profile; it needs --endpoint")) {
      try CommandLineOptions.parse(["--cacert", "ca.pem"])
    }
    let ca = FileManager.default.temporaryDirectory.appendingPathComponent("ca-\(UUID().uuidString).pem").path
    try Data("-----BEGIN CERTIFICATE-----\n".utf8).write(to: URL(fileURLWithPath: ca))
    defer { try? FileManager.default.removeItem(atPath: ca) }
    let adapter = try ConformanceCommand.makeEndpoint(
      CommandLineOptions.parse(["--endpoint", "https://h/", "--cacert", ca]))
    #expect(adapter?.caCertificate == ca)
    #expect(
      throws: UsageError.invalidValue(option: "--param", value: "novalue", expected: "name=value, e.g. prompt=consent")
    ) {
      try CommandLineOptions.parse(["--endpoint", "http://h/", "--param", "novalue"])
    }
  }

  @Test("A login command's cookie jar is the run's session; a failing one is a usage error quoting it")
  func loginCommand() async throws {
    let line = "127.0.0.1\\tFALSE\\t/\\tFALSE\\t0\\tsession\\tfrom-login"
    let jar = try await EndpointLogin.run(
      "printf '\(line)\\n' > \"$APPFLIP_COOKIE_JAR\"", endpoint: URL(string: "http://127.0.0.1:9/authorize")!)
    #expect(jar.header(for: URL(string: "http://127.0.0.1:9/authorize")!) == "session=from-login")
    let error = await #expect(throws: EndpointLoginError.self) {
      try await EndpointLogin.run("echo wrong password >&2; exit 3", endpoint: URL(string: "http://127.0.0.1:9/")!)
    }
    #expect(error?.description.contains("exited 3") == true)
    #expect(error?.description.contains("wrong password") == true)
  }
}

/// Issue 9, item 2 end to end: without a session the command stops at the preflight with the diagnosis.
@Suite(
  "Endpoint preflight against the Authlib server",
  .enabled(
    if: PythonFixtures.oauthServer,
    "needs Authlib, Flask and SQLAlchemy for python3; CI installs what it needs and always runs it")
)
struct EndpointPreflightCommandTests {
  @Test("Without a session the run stops at the preflight: every vector inconclusive, exit 1, reports written")
  func stops() async throws {
    let server = try await FixtureServer.start("server.py")
    defer { server.stop() }
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("appflip-pre-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: folder) }
    let errors = Lines()
    let code = await ConformanceCommand.run(
      [
        "--endpoint", try #require(server.ready.endpoint), "--quiet", "--report",
        folder.appendingPathComponent("r.xml").path,
        "--json", folder.appendingPathComponent("r.json").path,
      ], output: .init(out: { _ in }, err: { errors.add($0) }))
    #expect(code == .failure)
    #expect(errors.all.contains { $0.contains("preflight") && $0.contains("no session cookie was sent") })
    let json = try JSONSerialization.jsonObject(with: Data(contentsOf: folder.appendingPathComponent("r.json")))
    let summary = (json as? [String: Any])?["summary"] as? [String: Any]
    #expect(summary?["inconclusive"] as? Int == summary?["total"] as? Int)
    #expect(summary?["passed"] as? Int == 0)
  }

  @Test("With the session in a cookie jar the preflight passes and the run is judged")
  func proceeds() async throws {
    let server = try await FixtureServer.start("server.py")
    defer { server.stop() }
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("appflip-pre-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let cookie = try #require(server.ready.cookie)
    let equals = try #require(cookie.firstIndex(of: "="))
    let jar = folder.appendingPathComponent("jar.txt")
    try "127.0.0.1\tFALSE\t/\tFALSE\t0\t\(cookie[..<equals])\t\(cookie[cookie.index(after: equals)...])\n"
      .write(to: jar, atomically: true, encoding: .utf8)
    let code = await ConformanceCommand.run(
      [
        "--endpoint", try #require(server.ready.endpoint), "--cookie-file", jar.path, "--filter",
        "endpoint/refused/case/*",
        "--quiet", "--report", folder.appendingPathComponent("r.xml").path,
      ], output: .init(out: { _ in }, err: { _ in }))
    #expect(code == .success)
  }
}

/// Collects output lines from a command run.
final class Lines: @unchecked Sendable {
  private let lock = NSLock()
  private var lines: [String] = []
  func add(_ line: String) { lock.withLock { lines.append(line) } }
  var all: [String] { lock.withLock { lines } }
}

/// Issue 9, item 5: the rules as they read at the endpoint.
@Suite("Endpoint rules: iss, session_state, space as +, and AF-EP-3's other reading")
struct EndpointRulesTests {
  static func finding(_ rule: String, _ field: String, level: Level = .should, actual: String = "x") -> Finding {
    Finding(rule: rule, level: level, field: field, expected: "e", actual: actual, message: "m")
  }

  @Test("iss and session_state are allowed; scope, client_id or any other extra is informational; a token warns")
  func allowedParameters() {
    #expect(EndpointRules.finding(Self.finding("AF-RE-8", "reply.iss"), verdict: .accepted, rules: []) == nil)
    #expect(EndpointRules.finding(Self.finding("AF-RE-8", "reply.session_state"), verdict: .accepted, rules: []) == nil)
    for name in ["scope", "client_id", "debug"] {
      let mapped = EndpointRules.finding(Self.finding("AF-RE-8", "reply.\(name)"), verdict: .accepted, rules: [])
      #expect(mapped?.rule == "AF-EP-1" && mapped?.level == .may, "\(name)")
      #expect(mapped?.message.contains("RFC 6749 §4.1.2") == true)
    }
    for name in ["access_token", "id_token"] {
      let mapped = EndpointRules.finding(Self.finding("AF-RE-8", "reply.\(name)"), verdict: .accepted, rules: [])
      #expect(mapped?.level == .should, "\(name)")
    }
  }

  @Test("One request, one level: no two bundled endpoint vectors send the same request at different levels")
  func oneLevelPerRequest() throws {
    var levels: [String: (id: String, level: Level)] = [:]
    for loaded in VectorLoader.loadBundled(.endpoint).vectors {
      guard let step = try? RenderedStep.render(loaded.vector.steps[0], with: .default, profile: .endpoint)
      else { continue }
      // The state names the vector: the request is everything else.
      let query = step.link.drop { $0 != "?" }.split(separator: "&").filter { !$0.hasPrefix("state=") }
        .joined(separator: "&")
      let (id, level) = (loaded.vector.id, loaded.vector.level)
      if let other = levels[query] {
        #expect(other.level == level, "\(other.id) (\(other.level)) and \(id) (\(level)) send the same request")
      }
      levels[query] = (id, level)
    }
    #expect(levels.count > 80)
  }

  @Test("Space as + is informational (MAY) under AF-EP-5")
  func plus() {
    let mapped = EndpointRules.finding(Self.finding("AF-RE-6", "reply.state"), verdict: .accepted, rules: [])
    #expect(mapped?.rule == "AF-EP-5" && mapped?.level == .may)
  }

  @Test(
    "An error page instead of invalid_request warns under AF-EP-3 and names RFC 6749's error page; a code is AF-EP-4")
  func refusal() {
    let page = EndpointRules.finding(
      Self.finding("AF-V-2", "opened", level: .must, actual: "nothing"), verdict: .rejected,
      rules: ["AF-EP-4", "AF-EP-3"])
    #expect(page?.rule == "AF-EP-3" && page?.level == .should)
    #expect(page?.message.contains("RFC 6749 §4.1.2.1's error page is the other accepted reading") == true)
    let code = EndpointRules.finding(
      Self.finding("AF-RE-3", "reply.code", level: .must), verdict: .rejected, rules: ["AF-EP-4", "AF-EP-3"])
    #expect(code?.rule == "AF-EP-4" && code?.level == .must)
    #expect(
      EndpointRules.finding(Self.finding("AF-RU-4", "opened", level: .must), verdict: .ignored, rules: ["AF-EP-4"])?
        .rule
        == "AF-EP-4")
  }

  @Test("Through the runner, a form-encoded reply with iss and session_state passes")
  func throughRunner() async throws {
    let stub = try await FixtureServer.start("stub.py")
    defer { stub.stop() }
    let catalog = VectorLoader.loadBundled(.endpoint)
    let adapter = EndpointAdapter(endpoint: stub.url("/form"), headers: [], timeout: 5)
    adapter.session.set(.proven(redirectURI: Fixtures.redirect))
    for id in ["endpoint/form-encoding/space-single", "endpoint/state/space"] {
      let vector = try #require(catalog.vectors.first { $0.vector.id == id })
      let result = await Runner(adapter: adapter, timeout: 60).run(vector)
      #expect(result.status == .passed, "\(id): \(result.details)")
      #expect(result.findings.map(\.rule) == ["AF-EP-5"], "\(id)")
    }
  }
}
