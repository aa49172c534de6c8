extension DecodingProblem {
  /// Whose words name a JSON kind: the vector-file formats' or the subprocess protocol's.
  package enum Wording: Sendable {
    /// Vector, rules and waiver files: a number is "a number", anything else undocumented is "a JSON value of the
    /// documented kind".
    case vectorFile
    /// Subprocess protocol messages: any collection is "an array", anything else "an object".
    case protocolMessage
  }
}
