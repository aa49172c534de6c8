import Foundation

extension ConformanceCommand {
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
