extension ConfigurationCheck {
  /// One problem: the field as written in the file (e.g. `allowedRedirectUris[1]`), the value, and why it is refused.
  package struct Problem: Sendable, Hashable, CustomStringConvertible {
    /// The JSON field, e.g. `allowedRedirectUris[1]`.
    package var field: String
    /// The refused value.
    package var value: String
    /// Why, and what to do.
    package var reason: String

    /// `field "allowedRedirectUris[0]": "https://evil.example/cb" is not allowed: it is not one of …`, as
    /// `VectorError.invalidValue` words it.
    package var description: String {
      "field \"\(field)\": \"\(value)\" is not allowed: \(reason)."
    }

    /// The problem as a decoding error at its field, so a configuration file or a vector's override names it.
    func decodingError(at codingPath: [any CodingKey]) -> DecodingError {
      var path = codingPath
      let name = field.prefix { $0 != "[" }
      path.append(AnyCodingKey(stringValue: String(name)))
      if let open = field.firstIndex(of: "["), let index = Int(field[field.index(after: open)...].dropLast()) {
        path.append(AnyCodingKey(intValue: index))
      }
      return .dataCorrupted(.init(codingPath: path, debugDescription: reason))
    }
  }
}
