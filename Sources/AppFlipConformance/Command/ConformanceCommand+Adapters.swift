import Foundation

extension ConformanceCommand {
  /// How many adapters run at once: `--jobs`, else the machine's active cores, except against an HTTP endpoint, whose
  /// server may not expect parallel sign-ins, and with `--max-failures`, which stops after exactly n failures in
  /// catalog order only one vector at a time (1); never more than `work`, the vectors to run (and at least 1).
  static func jobs(_ options: CommandLineOptions, work: Int) -> Int {
    let serial = options.endpoint != nil || options.testsAssociation || options.maxFailures != nil
    let wanted = options.jobs ?? (serial ? 1 : max(1, ProcessInfo.processInfo.activeProcessorCount))
    return max(1, min(wanted, work))
  }

  /// `count` adapters, one per job: copies of `shared`, whose copies share their state (an endpoint run's session,
  /// `EndpointSession`; an association's file, read once), or `first` and more like it, each with an implementation
  /// of its own (its own process, or its own in-process handlers).
  static func makeAdapters(
    _ options: CommandLineOptions, first: any ConformanceAdapter, shared: (any ConformanceAdapter)?, count: Int
  ) -> [any ConformanceAdapter] {
    shared.map { Array(repeating: $0, count: count) }
      ?? [first] + (1..<count).map { _ in makeAdapter(exec: options.exec, timeout: options.timeout) }
  }

  /// The implementation under test of a run without `--endpoint` or `--association`, and of `fuzz`: a handler in any
  /// language over `--exec`, else the bundled reference handler.
  static func makeAdapter(exec: String?, timeout: Double) -> any ConformanceAdapter {
    exec.map { SubprocessAdapter(command: $0, timeout: timeout) }
      ?? InProcessAdapter(name: "AppFlipReferenceHandler") { ReferenceHandlerAdapter(configuration: $0) }
  }

  /// The adapter `--association` (or `--association-file`) describes, reading the file of `universalLink`'s host (the
  /// configured universal link's); `nil` without it, or with `--exec`.
  static func makeAssociation(_ options: CommandLineOptions, universalLink: String) throws(UsageError)
    -> AssociationAdapter?
  {
    guard options.testsAssociation, options.exec == nil else { return nil }
    try checkCACertificate(options)
    if let path = options.associationFile, let reason = InputFile.problem(at: path) {
      throw .invalidValue(
        option: "--association-file", value: path,
        expected: "an apple-app-site-association file that can be read (\(reason))")
    }
    let source = AssociationSource(
      file: options.associationFile, timeout: options.timeout, caCertificate: options.endpointStaging.caCertificate)
    return AssociationAdapter(source: source, universalLink: universalLink)
  }

  /// The HTTP endpoint adapter `--endpoint` and its request options describe; `nil` without `--endpoint`.
  static func makeEndpoint(_ options: CommandLineOptions) throws(UsageError) -> EndpointAdapter? {
    guard let endpoint = options.endpoint else { return nil }
    try checkCACertificate(options)
    guard let url = URL(string: endpoint), let scheme = url.scheme, ["http", "https"].contains(scheme) else {
      throw .invalidValue(option: "--endpoint", value: endpoint, expected: "an http or https URL")
    }
    var headers: [(String, String)] = []
    for header in options.headers {
      guard let colon = header.firstIndex(of: ":"), isToken(header[..<colon]) else {
        throw .invalidValue(option: "--header", value: header, expected: "'Name: value', the name a token")
      }
      try checkLine(header, option: "--header")
      headers.append(
        (String(header[..<colon]), String(header[header.index(after: colon)...]).trimmingCharacters(in: .whitespaces))
      )
    }
    if headers.filter({ $0.0.lowercased() == "host" }).count > 1 {
      throw .invalidValue(
        option: "--header", value: "Host", expected: "one Host header at most (it replaces the endpoint's)")
    }
    for cookie in options.cookies {
      guard let equals = cookie.firstIndex(of: "="), isToken(cookie[..<equals]) else {
        throw .invalidValue(option: "--cookie", value: cookie, expected: "name=value, e.g. session=abc123")
      }
      try checkLine(cookie, option: "--cookie")
    }
    let staging = options.endpointStaging
    if !options.cookies.isEmpty { headers.append(("Cookie", options.cookies.joined(separator: "; "))) }
    var adapter = EndpointAdapter(
      endpoint: url, headers: headers, timeout: options.timeout, parameters: staging.parameterPairs,
      scope: staging.scope, pkce: staging.pkce)
    adapter.caCertificate = staging.caCertificate
    return adapter
  }

  /// The token endpoint `--token-endpoint` and its options describe, its client secret read; `nil` without it.
  static func makeTokenEndpoint(_ options: CommandLineOptions) throws(UsageError) -> TokenEndpoint? {
    try options.token.settings(
      caCertificate: options.endpointStaging.caCertificate, environment: ProcessInfo.processInfo.environment,
      sends: !options.list && !options.validate)
  }

  /// The adapter of a run against `endpoint`: its own, or the token adapter that follows each code it gets to `token`.
  static func endpointRun(_ endpoint: EndpointAdapter, token: TokenEndpoint?) -> any ConformanceAdapter {
    token.map { TokenAdapter(endpoint: endpoint, token: $0) } ?? endpoint
  }

  /// Refuses a `--cacert` file that cannot be read (it goes with `--endpoint` or `--association`,
  /// `CommandLineOptions.check`).
  private static func checkCACertificate(_ options: CommandLineOptions) throws(UsageError) {
    if let file = options.endpointStaging.caCertificate, let reason = InputFile.problem(at: file) {
      throw .invalidValue(option: "--cacert", value: file, expected: "a PEM CA file that can be read (\(reason))")
    }
  }

  /// Refuses a header or cookie holding CR, LF or NUL: sent as is, it would split into a header of its own.
  private static func checkLine(_ value: String, option: String) throws(UsageError) {
    guard value.utf8.contains(where: { $0 == 0x0D || $0 == 0x0A || $0 == 0 }) else { return }
    throw .invalidValue(
      option: option, value: value, expected: "a value without CR, LF or NUL (they would add a header of their own)")
  }

  /// Whether a header or cookie name is an RFC 9110 token (letters, digits and !#$%&'*+-.^_`|~).
  private static func isToken(_ name: Substring) -> Bool {
    !name.isEmpty
      && name.utf8.allSatisfy { byte in
        (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
          || "!#$%&'*+-.^_`|~".utf8.contains(byte)
      }
  }

  /// For an endpoint run, the test user's session before anything is sent: the `--cookie-file` jar and the cookies
  /// `--login-command` writes (run under `watch`, so a signal ends it at once) join the adapter's `Cookie` header.
  /// Returns why no vector can run when the jar or the login gives no session.
  static func signIn(_ endpoint: inout EndpointAdapter, options: CommandLineOptions, watch: InterruptionWatch) async
    -> String?
  {
    let staging = options.endpointStaging
    var cookies: [String] = []
    if let path = staging.cookieFile {
      do {
        if let header = try EndpointCookieJar.load(path).header(for: endpoint.endpoint) { cookies.append(header) }
      } catch {
        return "--cookie-file \(Quoted.string(path)) cannot be used: \(error)"
      }
    }
    if let command = staging.loginCommand {
      let url = endpoint.endpoint
      let timeout = staging.loginTimeout ?? EndpointLogin.defaultTimeout
      let login = Task { try await EndpointLogin.run(command, endpoint: url, timeout: timeout) }
      watch.onStop = { login.cancel() }
      do {
        if let header = try await login.value.header(for: url) { cookies.append(header) }
      } catch is CancellationError {
        return nil  // a signal: the run stops, and its reports say so
      } catch {
        return "\(error)"
      }
    }
    guard !cookies.isEmpty else { return nil }
    endpoint.addCookies(cookies.joined(separator: "; "))
    return nil
  }

  /// For an endpoint run, the preflight (AF-EP-5): records in the adapters' shared session whether a signed-in request
  /// got a code (or whether the server refuses every App Flip URL, AF-EP-1), and returns the diagnosis that stops the
  /// run when nothing can be judged. A signal that `watch` sees cancels the preflight's request at once.
  static func preflight(
    _ endpoint: EndpointAdapter, options: CommandLineOptions, configuration: PartnerConfiguration,
    watch: InterruptionWatch
  ) async -> String? {
    guard options.endpointStaging.preflight else { return nil }
    let request = Task { await endpoint.prove(configuration: configuration) }
    watch.onStop = { request.cancel() }
    switch await request.value {
    case .proven, .refused: return nil
    case .failed(let diagnosis), .unanswered(let diagnosis): return diagnosis
    }
  }
}
