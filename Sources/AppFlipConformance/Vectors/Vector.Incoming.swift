extension Vector {
  /// The incoming universal link: structured parameters the harness encodes, or a raw URL for encoding attacks.
  package enum Incoming: Sendable, Hashable, Codable {
    /// Parameters in order, each `[name, value]` (or `[name]` for a bare name without `=`); the harness percent-encodes both and appends them to `base` (default `{universal_link}`).
    case params([Parameter], base: String?)
    /// The link exactly as given after placeholder substitution; `{client_id}` and `{redirect_uri}` are substituted percent-encoded.
    case raw(String)

    enum CodingKeys: String, CodingKey, CaseIterable {
      case params, base, raw
    }

    /// Decodes strictly: a field the format does not define is refused.
    package init(from decoder: any Decoder) throws {
      let container = try decoder.strictContainer(keyedBy: CodingKeys.self)
      if let raw = try container.decodeIfPresent(String.self, forKey: .raw) {
        if container.contains(.params) || container.contains(.base) {
          throw DecodingError.dataCorruptedError(
            forKey: .raw, in: container, debugDescription: "give either \"raw\" or \"params\", not both")
        }
        self = .raw(raw)
      } else {
        self = .params(
          try container.decode([Parameter].self, forKey: .params),
          base: try container.decodeIfPresent(String.self, forKey: .base))
      }
    }

    /// Encodes in the vector-file format.
    package func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      switch self {
      case .params(let parameters, let base):
        try container.encode(parameters, forKey: .params)
        try container.encodeIfPresent(base, forKey: .base)
      case .raw(let raw):
        try container.encode(raw, forKey: .raw)
      }
    }
  }

  /// One structured query parameter: a name and an optional value (`nil` writes the bare name without `=`).
  package struct Parameter: Sendable, Hashable, Codable {
    /// The parameter name, before encoding.
    package var name: String
    /// The value before encoding; `nil` for a bare name.
    package var value: String?

    /// Creates a parameter.
    package init(_ name: String, _ value: String?) {
      self.name = name
      self.value = value
    }

    /// Decodes strictly: a field the format does not define is refused.
    package init(from decoder: any Decoder) throws {
      var container = try decoder.unkeyedContainer()
      let count = container.count ?? 0
      guard count == 1 || count == 2 else {
        throw DecodingError.dataCorruptedError(
          in: container, debugDescription: "a parameter is [name, value] or [name], not \(count) items")
      }
      name = try container.decode(String.self)
      value = count == 2 ? try container.decode(String.self) : nil
    }

    /// Encodes in the vector-file format.
    package func encode(to encoder: any Encoder) throws {
      var container = encoder.unkeyedContainer()
      try container.encode(name)
      if let value { try container.encode(value) }
    }
  }
}
