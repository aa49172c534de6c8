import AppFlip
import Foundation
import Testing

@testable import AppFlipConformance

/// Issue 26: the token vectors' format, the judge's AF-TK checks, the request as Google sends it, and secrets.
@Suite("Token profile: vectors, judge, requests and secrets")
struct TokenTests {
  /// The loading problems of one token vector whose `exchanges` (and more fields) are `extra`, in a token file.
  func problems(_ extra: String, profile: String = "token") throws -> [String] {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("appflip-token-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("t.json")
    let text = """
      {"schemaVersion": 1, "profile": "\(profile)", "area": "t", "description": "d", "vectors": [{
        "id": "t/v", "description": "d", "spec": ["RFC 6749 §4.1.3"], "rules": ["AF-TK-3"], "level": "must",
        "flags": ["code-binding"],
        "incoming": {"params": [["client_id", "{client_id}"], ["redirect_uri", "{redirect_uri}"], ["state", "s"]]},
        "expect": {"verdict": "accepted", "reply": {"base": "{redirect_uri}", "code": "{code}", "state": "s"}},
        \(extra)}]}
      """
    try Data(text.utf8).write(to: file)
    return VectorLoader.load(file, displayPath: "t.json").problems.map(\.description)
  }

  @Test(
    "A token vector loads; a misspelled field, an unknown value, a managed parameter or a code not in §5.2 is refused")
  func format() throws {
    #expect(
      try problems(
        #""exchanges": [{"set": [["redirect_uri", "{redirect_uri}/"]], "auth": "basic", "expect": {"error": ["invalid_grant"]}}]"#
      ) == [])
    let misspelled = try problems(#""exchanges": [{"secrte": "wrong", "expect": "token"}]"#)
    #expect(misspelled.first?.contains("unknown field \"secrte\" (did you mean \"secret\"?)") == true, "\(misspelled)")
    let auth = try problems(#""exchanges": [{"auth": "digest", "expect": "token"}]"#)
    #expect(auth.first?.contains("must be one of body, basic") == true, "\(auth)")
    let managed = try problems(#""exchanges": [{"set": [["client_secret", "x"]], "expect": "token"}]"#)
    #expect(managed.first?.contains("change it with \"clientId\", \"secret\" or \"verifier\"") == true, "\(managed)")
    let code = try problems(#""exchanges": [{"expect": {"error": ["access_denied"]}}]"#)
    #expect(code.first?.contains("not an RFC 6749 §5.2 error code") == true, "\(code)")
    let answer = try problems(#""exchanges": [{"expect": "a token"}]"#)
    #expect(answer.first?.contains("an answer is \"token\" or {\"error\"") == true, "\(answer)")
    let none = try problems(#""interleaved": false"#)
    #expect(none.first?.contains("a token vector makes at least one token request") == true, "\(none)")
    let elsewhere = try problems(#""exchanges": [{"expect": "token"}]"#, profile: "endpoint")
    #expect(elsewhere.first?.contains("only token vectors") == true, "\(elsewhere)")
  }

  @Test("A token vector's meaning is in its fingerprint, and it encodes back to what it was")
  func roundTrip() throws {
    let loaded = try #require(
      TokenServerRun.catalog.vectors.first { $0.vector.id == "token/replay/revokes-issued-tokens" })
    let decoded = try JSONDecoder().decode(Vector.self, from: JSONEncoder().encode(loaded.vector))
    #expect(decoded == loaded.vector)
    var changed = loaded.vector
    changed.exchanges[1].expect = .token
    #expect(Fingerprint.of(changed) != Fingerprint.of(loaded.vector))
  }

  @Test("{other_redirect_uri} is the second configured URL; with one URL the vector does not apply")
  func otherRedirectURI() throws {
    let vector = try #require(
      TokenServerRun.catalog.vectors.first { $0.vector.id == "token/redirect-uri/other-app-flip-url" })
    let plan = VectorPlan.make(vector, configuration: .default, adapter: Self.adapter(.body))
    #expect((try? plan.get())?.exchanges.first?.set.first?.value == PartnerConfiguration.default.allowList.urls[1])
    let one = PartnerConfiguration(
      clientID: "c", universalLink: "https://p.example/a", allowList: RedirectAllowList([Self.redirect]))
    guard case .failure(let skip) = VectorPlan.make(vector, configuration: one, adapter: Self.adapter(.body)) else {
      Issue.record("rendered with one URL")
      return
    }
    #expect(skip.reason.contains("{other_redirect_uri} needs a second allowed redirect URL"))
  }

  static let redirect = "https://oauth-redirect.googleusercontent.com/a/com.google.OPA"

  static func adapter(_ auth: Vector.Exchange.ClientAuth, pkce: Bool = false) -> TokenAdapter {
    TokenAdapter(
      endpoint: EndpointAdapter(
        endpoint: URL(string: "http://127.0.0.1:9/authorize")!, headers: [("Cookie", "session=s")], timeout: 1,
        parameters: [], scope: nil, pkce: pkce),
      token: TokenEndpoint(url: URL(string: "http://127.0.0.1:9/token")!, secret: .init("s3cret/value"), auth: auth))
  }

  @Test("The code to exchange is split from the redirect in UTF-8: '&' before a combining accent still ends it")
  func codeSplitInUTF8() {
    let adapter = Self.adapter(.body)
    #expect(adapter.code(in: Self.redirect + "?code=c%2F1&\u{301}state=s") == "c/1")
    #expect(adapter.code(in: Self.redirect + "?state=s&\u{301}=x&code=a+b") == "a b")
    #expect(adapter.code(in: Self.redirect + "#?code=c") == nil)
    #expect(adapter.code(in: Self.redirect + "?code=a&code=b") == nil)
    #expect(adapter.code(in: Self.redirect + "?code=&state=s") == nil)
  }

  @Test("A token answer is read as JSONDecoder reads it: numbers by value, a trailing comma and a repeated name taken")
  func answerReading() {
    let adapter = Self.adapter(.body)
    func read(_ body: String) -> TokenAnswer {
      var answer = EndpointAnswer(status: 200, location: nil, body: [])
      answer.body = Array(body.utf8)
      return adapter.read(answer, request: "", grant: .authorizationCode, basic: false).answer
    }
    for expires in ["3600", "3600.0", "3.6e3"] {
      #expect(read(#"{"token_type":"Bearer","expires_in":\#(expires)}"#).expiresInSeconds)
    }
    #expect(!read(#"{"expires_in":1.5}"#).expiresInSeconds)
    #expect(read(#"{"token_type":"Bearer","token_type":"MAC",}"#).isBearer)
    #expect(read(#"{"expires_in":1e400}"#).notJSON != nil)
  }

  @Test("Google's exchange: the form as it sends it, in the body or under HTTP Basic, and the variations")
  func requests() throws {
    let body = Self.adapter(.body)
    let pair = EndpointPKCE(verifier: "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk")
    let plain = body.build(
      Vector.Exchange(expect: .token), code: "c/1", redirectURI: Self.redirect, pair: pair, refreshToken: nil,
      clientID: "id.apps")
    #expect(
      plain.body
        == "grant_type=authorization_code&code=c%2F1&redirect_uri=\(PercentEncoding.encode(Self.redirect))"
        + "&client_id=id.apps&client_secret=s3cret%2Fvalue&code_verifier=dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk")
    #expect(plain.headers.isEmpty && !plain.basic)
    #expect(!plain.shown.contains("s3cret") && !plain.shown.contains("c%2F1") && !plain.shown.contains("dBjft"))
    #expect(plain.shown.contains("client_secret=(client_secret: 12 bytes, sha256 "))

    let basic = Self.adapter(.basic).build(
      Vector.Exchange(omit: ["redirect_uri"], secret: .wrong, expect: .error(["invalid_client"])), code: "c",
      redirectURI: Self.redirect, pair: nil, refreshToken: nil, clientID: "a b")
    // RFC 6749 §2.3.1: form-encoded id and secret, joined, base64.
    let credentials = Data("a%20b:s3cret%2Fvalux".utf8).base64EncodedString()
    #expect(basic.headers.map(\.1) == ["Basic " + credentials] && basic.basic)
    #expect(basic.body == "grant_type=authorization_code&code=c")
    #expect(basic.shown.contains("HTTP Basic: client_id \"a b\", password (wrong client_secret: 12 bytes"))

    let refresh = body.build(
      Vector.Exchange(grant: .refreshToken, auth: .body, secret: .missing, verifier: .missing, expect: .token),
      code: "c", redirectURI: Self.redirect, pair: pair, refreshToken: "r1", clientID: "id")
    #expect(refresh.body == "grant_type=refresh_token&refresh_token=r1&client_id=id")
    let wrongVerifier = body.build(
      Vector.Exchange(set: [.init("grant_type", "x")], verifier: .wrong, expect: .token), code: "c", redirectURI: nil,
      pair: pair, refreshToken: nil, clientID: "id")
    #expect(
      wrongVerifier.body.hasPrefix("grant_type=x&code=c&client_id=id&client_secret=s3cret%2Fvalue&code_verifier="))
    #expect(!wrongVerifier.body.hasSuffix(pair.verifier))
  }

  @Test(
    "The request goes as a form POST over the suite's own client and through curl, the secret never on a command line")
  func post() throws {
    let parts = try EndpointHTTPClient.RequestParts("http://127.0.0.1:8000/token")
    let message = String(
      decoding: EndpointHTTPClient.message(parts, headers: [], body: Array("a=1&b=2".utf8)), as: UTF8.self)
    #expect(message.hasPrefix("POST /token HTTP/1.1\r\nHost: 127.0.0.1:8000\r\n"))
    #expect(message.contains("\r\nAccept: */*\r\n"))
    #expect(message.hasSuffix("Content-Type: application/x-www-form-urlencoded\r\nContent-Length: 7\r\n\r\na=1&b=2"))
    let curl = EndpointCurl.configuration(
      "https://h/token", headers: [], body: Array("client_secret=s".utf8), seconds: 1, caCertificate: nil)
    #expect(curl.contains("\ndata-binary = \"client_secret=s\"\n"))
    #expect(curl.contains("header = \"Content-Type: application/x-www-form-urlencoded\""))
    #expect(!EndpointCurl.configuration("https://h/", headers: [], seconds: 1, caCertificate: nil).contains("data"))
  }

  static func answer(
    _ status: Int = 200, _ members: [String: TokenAnswer.Member] = [:], cacheControl: String? = "no-store",
    grant: Vector.Exchange.Grant = .authorizationCode, basic: Bool = false, notJSON: String? = nil,
    wwwAuthenticate: String? = nil
  ) -> TokenAnswer {
    TokenAnswer(
      request: "POST …", grant: grant, basic: basic, status: status, contentType: "application/json",
      cacheControl: cacheControl, wwwAuthenticate: wwwAuthenticate, members: members, notJSON: notJSON)
  }

  static let token: [String: TokenAnswer.Member] = [
    "access_token": .secret("(access_token: 4 bytes, sha256 aaaaaaaa)"), "token_type": .string("bearer"),
    "expires_in": .other("3600"), "refresh_token": .secret("(refresh_token: 4 bytes, sha256 bbbbbbbb)"),
  ]

  func findings(_ expected: Vector.Exchange.Answer, _ answer: TokenAnswer, previous: String? = nil) -> [String] {
    Judge.tokenFindings(expected, answer, refusalRule: "AF-TK-3", previousAccessToken: previous).map {
      "\($0.rule) \($0.level.rawValue) \($0.field)"
    }
  }

  @Test("A token answer: each AF-TK-1 check at its level, expires_in and refresh_token as RULES.md decides")
  func tokenAnswers() {
    #expect(findings(.token, Self.answer(200, Self.token)) == [])
    #expect(findings(.token, Self.answer(400, ["error": .string("invalid_grant")])) == ["AF-TK-1 must status"])
    #expect(findings(.token, Self.answer(notJSON: "form data, not JSON: …")) == ["AF-TK-1 must body"])
    var bare = Self.token
    bare["token_type"] = nil
    bare["refresh_token"] = nil
    #expect(
      findings(.token, Self.answer(200, bare, cacheControl: "private"))
        == ["AF-TK-1 must body.token_type", "AF-TK-1 must headers.cache-control", "AF-TK-1 must body.refresh_token"])
    bare["expires_in"] = nil
    bare["token_type"] = .string("mac")
    #expect(
      findings(.token, Self.answer(200, bare))
        == ["AF-TK-1 must body.token_type", "AF-TK-1 may body.expires_in", "AF-TK-1 may body.refresh_token"])
    var text = Self.token
    text["expires_in"] = .string("3600")
    #expect(findings(.token, Self.answer(200, text)) == ["AF-TK-1 should body.expires_in"])
    let same = Self.answer(200, Self.token, grant: .refreshToken)
    #expect(
      findings(.token, same, previous: "(access_token: 4 bytes, sha256 aaaaaaaa)") == [
        "AF-TK-6 should body.access_token"
      ])
  }

  @Test("A refusal: no token is the MUST, the error's shape AF-TK-5, and 401 with WWW-Authenticate under HTTP Basic")
  func refusals() {
    let error: Vector.Exchange.Answer = .error(["invalid_grant"])
    #expect(findings(error, Self.answer(400, ["error": .string("invalid_grant")])) == [])
    #expect(findings(error, Self.answer(200, Self.token)) == ["AF-TK-3 must body.access_token"])
    #expect(
      findings(error, Self.answer(200, [:], notJSON: "form data, not JSON: access_token=(…)")) == [
        "AF-TK-3 must body.access_token"
      ])
    #expect(findings(error, Self.answer(400, ["error": .string("invalid_request")])) == ["AF-TK-5 should body.error"])
    #expect(
      findings(error, Self.answer(500, [:], notJSON: "an empty body")) == [
        "AF-TK-5 should status", "AF-TK-5 should body",
      ])
    let client: Vector.Exchange.Answer = .error(["invalid_client"])
    let refused = ["error": TokenAnswer.Member.string("invalid_client")]
    #expect(findings(client, Self.answer(401, refused)) == [])
    #expect(findings(client, Self.answer(400, refused, basic: true)) == ["AF-TK-3 must status"])
    #expect(findings(client, Self.answer(401, refused, basic: true, wwwAuthenticate: "Basic realm=\"x\"")) == [])
    #expect(
      findings(client, Self.answer(401, refused, basic: true, wwwAuthenticate: "Bearer error=\"invalid_client\""))
        == ["AF-TK-5 should headers.www-authenticate"])
  }

  @Test("Secrets are shown as kind, length and a short hash, in every form they were seen in")
  func secrets() {
    let secrets = TokenSecrets(secret: "client-secret-1")
    #expect(TokenSecrets.describe("abc", as: "code") == "(code: 3 bytes, sha256 ba7816bf)")
    secrets.remember("c/de+fg", as: "code", encodedAs: "c%2Fde%2Bfg")
    #expect(
      secrets.scrub("x client-secret-1 c%2Fde%2Bfg c/de+fg")
        == "x (client_secret: 15 bytes, sha256 \(TokenSecrets.describe("client-secret-1", as: "").suffix(9))"
        + " (code: 7 bytes, sha256 \(TokenSecrets.describe("c/de+fg", as: "").suffix(9))"
        + " (code: 7 bytes, sha256 \(TokenSecrets.describe("c/de+fg", as: "").suffix(9))")
    #expect(secrets.scrub("ab") == "ab")
    // A code in a redirect or a quoted Location is replaced wherever it stands, however short; the rest is untouched.
    let adapter = Self.adapter(.body)
    let short = TokenSecrets.describe("a b", as: "code")
    #expect(
      adapter.scrubbed("HTTP 302 to \"https://x/cb?state=s&code=a+b#f\" (?barcode=1&code=&x=1)")
        == "HTTP 302 to \"https://x/cb?state=s&code=\(short)#f\" (?barcode=1&code=&x=1)")
    #expect(adapter.scrubbed("later: a b, a+b") == "later: a b, a+b", "too short to search for in free text")
    // A request the adapter showed is scrubbed again as it leaves, and stays as it was.
    let shown = "POST /t with the form grant_type=x&code=\(TokenSecrets.describe("c0de-c0de", as: "code"))&b=1"
    #expect(adapter.scrubbed(shown) == shown && adapter.scrubbed(adapter.scrubbed(shown)) == shown)
    #expect("\(TokenEndpoint.Secret("hunter2-long"))".hasPrefix("(client_secret: 12 bytes, sha256 "))
  }

  @Test("--list and --validate send nothing, so need no secret; --list counts a token vector's requests")
  func listing() async {
    let lines = Lines()
    let arguments = [
      "--endpoint", "http://127.0.0.1:9/a", "--token-endpoint", "http://127.0.0.1:9/t", "--secret-env",
      "APPFLIP_TEST_UNSET_SECRET", "--filter", "token/replay/second-exchange",
    ]
    let output = ConformanceCommand.Output(out: { lines.add($0) }, err: { lines.add($0) })
    #expect(await ConformanceCommand.run(arguments + ["--list"], output: output) == .success)
    #expect(await ConformanceCommand.run(arguments + ["--validate"], output: output) == .success)
    #expect(lines.all.count == 2 && lines.all[0].contains("(+2 token requests)"), "\(lines.all)")
    #expect(lines.all.last == "1 vector valid, 0 problems")
  }

  @Test("The token options: where the secret comes from, what needs what, and one sentence when it is missing")
  func options() throws {
    #expect(
      throws: UsageError.conflict("--token-endpoint", "the app profile; it needs --endpoint, whose codes it exchanges")
    ) {
      try CommandLineOptions.parse(["--token-endpoint", "http://h/token"])
    }
    #expect(throws: UsageError.conflict("--secret-file", "a run without --token-endpoint")) {
      try CommandLineOptions.parse(["--endpoint", "http://h/", "--secret-file", "s"])
    }
    #expect(throws: UsageError.conflict("--secret-env", "--secret-file")) {
      try CommandLineOptions.parse([
        "--endpoint", "http://h/", "--token-endpoint", "http://h/t", "--secret-env", "A",
        "--secret-file", "s",
      ])
    }
    #expect(throws: UsageError.invalidValue(option: "--token-auth", value: "digest", expected: "body or basic")) {
      try CommandLineOptions.parse([
        "--endpoint", "http://h/", "--token-endpoint", "http://h/t", "--token-auth", "digest",
      ])
    }
    #expect(throws: UsageError.unknownOption("--client-secret", hint: nil)) {
      try CommandLineOptions.parse(["--endpoint", "http://h/", "--client-secret", "hunter2"])
    }
    let options = TokenOptions(endpoint: "https://h/token", auth: .basic, codeLifetime: 30)
    let settings = try #require(
      try options.settings(caCertificate: "ca.pem", environment: ["APPFLIP_CLIENT_SECRET": "s"]))
    #expect(settings.secret.value == "s" && settings.auth == .basic && settings.codeLifetime == 30)
    #expect(settings.caCertificate == "ca.pem")
    #expect(try TokenOptions(secretVariable: "MINE").secret(environment: ["MINE": "m"]).value == "m")
    #expect(throws: UsageError.self) { try TokenOptions().secret(environment: ["APPFLIP_CLIENT_SECRET": ""]) }
    let file = FileManager.default.temporaryDirectory.appendingPathComponent("appflip-secret-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: file) }
    try Data("from-a-file\r\n".utf8).write(to: file)
    #expect(try TokenOptions(secretFile: file.path).secret(environment: [:]).value == "from-a-file")
    #expect(
      throws: UsageError.invalidValue(option: "--token-endpoint", value: "ftp://h", expected: "an http or https URL")
    ) {
      try TokenOptions(endpoint: "ftp://h").settings(caCertificate: nil, environment: ["APPFLIP_CLIENT_SECRET": "s"])
    }
  }
}
