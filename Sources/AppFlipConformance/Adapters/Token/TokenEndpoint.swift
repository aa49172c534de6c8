import Foundation

/// The partner's token endpoint as Google's account linking calls it (`--token-endpoint`, APPFLIP-RULES AF-TK): its
/// URL, the client secret Google holds, how Google authenticates (RFC 6749 §2.3.1: in the form body unless the
/// partner asks for HTTP Basic), and the code lifetime the partner states (AF-TK-7).
package struct TokenEndpoint: Sendable {
  /// A client secret, read from the environment or a file; it prints as its length and hash, never as itself.
  package struct Secret: Sendable, CustomStringConvertible {
    /// The secret.
    let value: String

    /// Wraps a secret.
    package init(_ value: String) {
      self.value = value
    }

    /// The length and a short hash.
    package var description: String { TokenSecrets.describe(value, as: "client_secret") }

    /// The same secret with its last character changed: a near miss that a prefix or length check lets through.
    var wrong: String {
      let last = value.last.map { $0 == "x" ? "y" : "x" } ?? "x"
      return String(value.dropLast()) + last
    }
  }

  /// The token endpoint, e.g. `https://partner.example/oauth/token`.
  package var url: URL
  /// The client secret registered for Google's client id.
  package var secret: Secret
  /// How Google sends the client's credentials: `body` (Google's default) or `basic`.
  package var auth: Vector.Exchange.ClientAuth = .body
  /// The authorization code's lifetime in seconds, as the partner states it; `nil` leaves out the expiry vectors.
  package var codeLifetime: Double?
  /// A PEM file of the CA an `https:` token endpoint's certificate is checked against (`--cacert`).
  package var caCertificate: String?

  /// How long a wait of a token request lasts under the stated lifetime, in seconds.
  func seconds(_ wait: Vector.Exchange.Wait) -> Double {
    let lifetime = codeLifetime ?? 0
    switch wait {
    case .halfLifetime: return lifetime / 2
    case .pastLifetime: return lifetime + 2
    }
  }
}
