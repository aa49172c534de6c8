extension SubprocessProtocol {
  /// The implementation's answer to `start`: who it is and what it can do.
  struct Ready: Decodable, Sendable, Hashable {
    /// The implementation's name, version and language, for reports.
    struct Implementation: Decodable, Sendable, Hashable {
      var name: String
      var version: String
      var language: String

      enum CodingKeys: String, CodingKey, CaseIterable {
        case name, version, language
      }

      init(from decoder: any Decoder) throws {
        let container = try decoder.strictContainer(keyedBy: CodingKeys.self)
        name = try container.decode(String.self, forKey: .name)
        version = try container.decode(String.self, forKey: .version)
        language = try container.decode(String.self, forKey: .language)
      }
    }

    /// What the implementation can do.
    struct Capabilities: Decodable, Sendable, Hashable {
      /// Whether it builds its handler from each run message's configuration.
      var configuration: Bool
      /// Whether it reports how it opened a URL (`opened.universalLinksOnly`).
      var universalLinksOnly: Bool

      enum CodingKeys: String, CodingKey, CaseIterable {
        case configuration, universalLinksOnly
      }

      init(from decoder: any Decoder) throws {
        let container = try decoder.strictContainer(keyedBy: CodingKeys.self)
        configuration = try container.decode(Bool.self, forKey: .configuration)
        universalLinksOnly = try container.decode(Bool.self, forKey: .universalLinksOnly)
      }
    }

    var version: Int
    var implementation: Implementation
    var capabilities: Capabilities

    enum CodingKeys: String, CodingKey, CaseIterable {
      case ready, version, implementation, capabilities
    }

    init(from decoder: any Decoder) throws {
      let container = try decoder.strictContainer(keyedBy: CodingKeys.self)
      guard try container.decode(Bool.self, forKey: .ready) else {
        throw DecodingError.dataCorruptedError(
          forKey: .ready, in: container, debugDescription: "must be true; an implementation that cannot start exits")
      }
      version = try container.decode(Int.self, forKey: .version)
      implementation = try container.decode(Implementation.self, forKey: .implementation)
      capabilities = try container.decode(Capabilities.self, forKey: .capabilities)
    }

    /// `NAME VERSION (LANGUAGE, protocol N)`.
    var summary: String {
      "\(implementation.name) \(implementation.version) (\(implementation.language), protocol \(version))"
    }
  }

  /// The first look at a line: whether it is a JSON object, its `version` and `seq` if they are integers, and whether it
  /// is a code request (it has `codeRequest`).
  struct Envelope: Decodable {
    var version: Int?
    var seq: Int?
    var isCodeRequest: Bool

    enum CodingKeys: String, CodingKey {
      case version, seq, codeRequest
    }
  }
}

extension SubprocessProtocol.Envelope {
  /// Reads what is there, leniently; declared here, so the fast reader keeps the memberwise initializer.
  init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    version = try? container.decode(Int.self, forKey: .version)
    seq = try? container.decode(Int.self, forKey: .seq)
    isCodeRequest = container.contains(.codeRequest)
  }
}
