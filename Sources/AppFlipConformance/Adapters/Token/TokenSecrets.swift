import Foundation

/// The secret values a token run handles, so that none reaches a report or the console (APPFLIP-RULES AF-TK): the
/// client secret, each code, PKCE verifier and token. Each is shown as its kind, its length and a short hash, e.g.
/// `(code: 48 bytes, sha256 9f86d081)`, which says which value it was to the person who has it, and nothing to anyone
/// else. Copies of a token adapter share one store.
package final class TokenSecrets: Sendable {
  /// Values shorter than this are described where the run knows them to be secret, but not searched for in text:
  /// replacing a two-letter value would garble every message.
  static let shortest = 6

  /// Every value searched for, longest first (so a value inside a longer one does not split it), with its description.
  private let known = Locked<[(value: String, shown: String)]>([])

  /// Creates a store that knows the client secret.
  package init(secret: String) {
    remember(secret, as: "client_secret")
  }

  /// `(kind: N bytes, sha256 xxxxxxxx)`: the length and the first 4 bytes of the SHA-256 of the value.
  static func describe(_ value: String, as kind: String) -> String {
    let hash = SHA256.digest(Array(value.utf8)).prefix(4).map { String(format: "%02x", $0) }.joined()
    return "(\(kind): \(value.utf8.count) bytes, sha256 \(hash))"
  }

  /// Whether `text` starts with a description `describe` made, e.g. `(code: 48 bytes, sha256 9f86d081)`.
  static func startsWithDescription(_ text: Substring) -> Bool {
    guard text.hasPrefix("("), let close = text.prefix(80).firstIndex(of: ")") else { return false }
    let inside = text[text.index(after: text.startIndex)..<close]
    guard let hash = inside.range(of: " bytes, sha256 ") else { return false }
    return inside[hash.upperBound...].count == 8 && inside[..<hash.lowerBound].contains(": ")
  }

  /// Records a secret value, and the form it has percent-encoded in a URL when that differs; returns its description.
  @discardableResult
  package func remember(_ value: String, as kind: String, encodedAs encoded: String? = nil) -> String {
    let shown = Self.describe(value, as: kind)
    known.withLock { known in
      for form in [value, encoded ?? value] where form.utf8.count >= Self.shortest {
        guard !known.contains(where: { $0.value == form }) else { continue }
        known.append((form, shown))
      }
      known.sort { $0.value.utf8.count > $1.value.utf8.count }
    }
    return shown
  }

  /// The text with every known secret replaced by its description.
  package func scrub(_ text: String) -> String {
    known.withLock { known in
      var text = text
      for (value, shown) in known {
        text = text.replacingOccurrences(of: value, with: shown, options: .literal)
      }
      return text
    }
  }
}
