import Foundation

/// The command-line options of a token run (`--token-endpoint`, APPFLIP-RULES AF-TK): where the token endpoint is, where
/// the client secret comes from (an environment variable or a file, never the command line), how Google authenticates,
/// and the code lifetime the partner states.
struct TokenOptions: Sendable, Hashable {
  /// The environment variable the client secret is read from unless another is named.
  static let defaultSecretVariable = "APPFLIP_CLIENT_SECRET"

  /// `--token-endpoint`.
  var endpoint: String?
  /// `--secret-env`.
  var secretVariable: String?
  /// `--secret-file`.
  var secretFile: String?
  /// `--token-auth`.
  var auth: Vector.Exchange.ClientAuth?
  /// `--code-lifetime`, in seconds.
  var codeLifetime: Double?

  /// The token endpoint's settings, its secret read from the file or the environment (when `sends`: `--list` and
  /// `--validate` send nothing, so need none); `nil` without `--token-endpoint`.
  func settings(caCertificate: String?, environment: [String: String], sends: Bool = true) throws(UsageError)
    -> TokenEndpoint?
  {
    guard let endpoint else { return nil }
    guard let url = URL(string: endpoint), let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme)
    else {
      throw .invalidValue(option: "--token-endpoint", value: endpoint, expected: "an http or https URL")
    }
    let secret = sends ? try secret(environment: environment) : TokenEndpoint.Secret("")
    return TokenEndpoint(
      url: url, secret: secret, auth: auth ?? .body, codeLifetime: codeLifetime, caCertificate: caCertificate)
  }

  /// The client secret: the file's text without its final line break, or the variable's value.
  func secret(environment: [String: String]) throws(UsageError) -> TokenEndpoint.Secret {
    let fix =
      "; the token endpoint needs the client secret registered for Google's client id, from the environment"
      + " (--secret-env, default \(Self.defaultSecretVariable)) or a file (--secret-file), never from the"
      + " command line"
    if let file = secretFile {
      let data: Data
      do {
        data = try InputFile.read(file, as: InputFile.Kind(name: "a client secret file", limit: 64 << 10))
      } catch {
        throw .clientSecret("--secret-file \(Quoted.string(file)) cannot be read (\(error.reason))\(fix)")
      }
      var text = String(decoding: data, as: UTF8.self)
      // One line ending (LF or CR LF; "\r\n" is one Character, so removeLast takes both).
      if text.utf8.last == UInt8(ascii: "\n") || text.utf8.last == UInt8(ascii: "\r") { text.removeLast() }
      guard !text.isEmpty else { throw .clientSecret("--secret-file \(Quoted.string(file)) is empty\(fix)") }
      return TokenEndpoint.Secret(text)
    }
    let name = secretVariable ?? Self.defaultSecretVariable
    guard let value = environment[name], !value.isEmpty else {
      throw .clientSecret(
        "the environment variable \(name) is \(environment[name] == nil ? "not set" : "empty")\(fix); export it, e.g."
          + " in CI from a secret")
    }
    return TokenEndpoint.Secret(value)
  }
}
