extension VectorValidator {
  /// The form parameters a token request's `set` and `omit` may not name: the client's credentials and the PKCE
  /// verifier go where the authentication method and `--pkce` put them, changed with `clientId`, `secret`, `verifier`.
  static let managedParameters = ["client_id", "client_secret", "code_verifier"]

  /// What is wrong with a vector's token requests (RULES.md AF-TK): a token vector has one step, which gets the code,
  /// and at least one request; no other profile has any.
  static func exchangeProblems(_ vector: Vector, profile: VectorFile.Profile) -> [(String, String, String)] {
    guard profile == .token else {
      return vector.exchanges.isEmpty
        ? []
        : [
          ("exchanges", "[…]", "only token vectors (\"profile\": \"token\") make token requests; remove \"exchanges\"")
        ]
    }
    var problems: [(String, String, String)] = []
    if vector.steps.count != 1 || vector.steps.first?.expect.verdict != .accepted {
      problems.append(
        ("steps", "\(vector.steps.count) steps", "a token vector has one accepted step, the request that gets its code")
      )
    }
    if vector.exchanges.isEmpty {
      problems.append(("exchanges", "[]", "a token vector makes at least one token request; add \"exchanges\""))
    }
    for (index, exchange) in vector.exchanges.enumerated() {
      let path = "exchanges[\(index)]."
      let names = exchange.set.map(\.name) + exchange.omit
      for name in names where managedParameters.contains(name) {
        problems.append(
          (
            path + (exchange.omit.contains(name) ? "omit" : "set"), name,
            "\(name) is sent as the client authentication and --pkce say; change it with \"clientId\", \"secret\" or"
              + " \"verifier\""
          ))
      }
      if exchange.grant == .refreshToken, exchange.verifier != nil || exchange.wait != nil {
        problems.append(
          (path + "grant", "refresh_token", "a refresh request has no code: \"verifier\" and \"wait\" change a code's"))
      }
      if case .error(let codes) = exchange.expect {
        for code in codes where !Vector.Exchange.errorCodes.contains(code) {
          problems.append(
            (
              path + "expect.error", code,
              "not an RFC 6749 §5.2 error code; use \(Vector.Exchange.errorCodes.joined(separator: ", "))"
            ))
        }
      }
    }
    return problems
  }

  /// Every string of a vector's token requests that placeholders are substituted in, with its field path.
  static func strings(in exchanges: [Vector.Exchange]) -> [(String, String)] {
    var strings: [(String, String)] = []
    for (index, exchange) in exchanges.enumerated() {
      for (position, parameter) in exchange.set.enumerated() {
        strings.append(("exchanges[\(index)].set[\(position)]", parameter.name))
        if let value = parameter.value { strings.append(("exchanges[\(index)].set[\(position)]", value)) }
      }
      if let clientID = exchange.clientID { strings.append(("exchanges[\(index)].clientId", clientID)) }
    }
    return strings
  }
}
