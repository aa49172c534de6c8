/// The client-id step: why `client_id` makes a request invalid, or `nil` when it is the configured one.
public enum ClientIDChecks {
  /// Correct: present exactly once and byte-identical to the configured id (AF-IN-1, AF-IN-5).
  @Sendable public static func exact(_ clientID: LinkValue, _ expected: String) -> String? {
    check(clientID) { $0.utf8.elementsEqual(expected.utf8) }
  }

  /// Bug: never looks at `client_id`.
  @Sendable public static func ignored(_ clientID: LinkValue, _ expected: String) -> String? {
    nil
  }

  /// Bug: checks `client_id` only when it is there (`if let clientID, clientID != expected`).
  @Sendable public static func optional(_ clientID: LinkValue, _ expected: String) -> String? {
    clientID == .missing ? nil : exact(clientID, expected)
  }

  /// Bug: compares with Swift's `String ==`, which treats canonically equivalent strings (U+212A KELVIN SIGN and `K`) as equal.
  @Sendable public static func unicodeEquivalent(_ clientID: LinkValue, _ expected: String) -> String? {
    check(clientID) { $0 == expected }
  }

  /// Bug: compares case-insensitively.
  @Sendable public static func caseInsensitive(_ clientID: LinkValue, _ expected: String) -> String? {
    check(clientID) { $0.lowercased() == expected.lowercased() }
  }

  /// Rejects a missing, duplicated or malformed `client_id`, and one `matches` refuses.
  static func check(_ clientID: LinkValue, matches: (String) -> Bool) -> String? {
    switch clientID {
    case .missing: "client_id is missing"
    case .duplicated: "client_id is duplicated"
    case .malformed: "client_id is malformed"
    case .value(let value): matches(value) ? nil : "client_id is not registered"
    }
  }
}
