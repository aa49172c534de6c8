/// The command-line options a partner's staging server needs with `--endpoint`: its session, parameters, scope, PKCE.
struct EndpointStagingOptions: Sendable, Hashable {
  /// `--param name=value`, in order.
  var parameters: [String] = []
  /// `--scope`.
  var scope: String?
  /// `--pkce`.
  var pkce = false
  /// `--cookie-file`.
  var cookieFile: String?
  /// `--login-command`.
  var loginCommand: String?
  /// `--login-timeout`: seconds the login command may take.
  var loginTimeout: Double?
  /// `--cacert`: the CA file an `https:` endpoint's certificate is checked against.
  var caCertificate: String?
  /// `--no-preflight` clears it.
  var preflight = true

  /// The `--param` values as name and value pairs.
  var parameterPairs: [(String, String)] {
    parameters.map { parameter in
      let equals = parameter.firstIndex(of: "=")!
      return (String(parameter[..<equals]), String(parameter[parameter.index(after: equals)...]))
    }
  }
}
