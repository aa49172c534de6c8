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

  /// The first of these options given, for the error when `--endpoint` is missing.
  var firstGiven: String? {
    if !parameters.isEmpty { return "--param" }
    if scope != nil { return "--scope" }
    if pkce { return "--pkce" }
    if cookieFile != nil { return "--cookie-file" }
    if loginCommand != nil { return "--login-command" }
    if loginTimeout != nil { return "--login-timeout" }
    if caCertificate != nil { return "--cacert" }
    return preflight ? nil : "--no-preflight"
  }

  /// The `--param` values as name and value pairs.
  var parameterPairs: [(String, String)] {
    parameters.map { parameter in
      let equals = parameter.firstIndex(of: "=")!
      return (String(parameter[..<equals]), String(parameter[parameter.index(after: equals)...]))
    }
  }
}
