import AppFlip

extension SubprocessProtocol {
  /// The implementation's answer to `run`: what it did, or that it skipped the step or failed.
  enum Response: Decodable, Sendable, Hashable {
    /// What the handler opened (`nil`: nothing) and every code request it made, in order.
    case handled(opened: Opened?, authorization: [AuthorizationRequest])
    /// The implementation does not run this step, and why.
    case skipped(reason: String)
    /// The implementation could not run this step, and why.
    case errored(message: String)

    /// The `opened` object: the URL, whether it was opened with universal links only, and optionally the raw options
    /// the code passed (keys as strings), from which the harness decides AF-RE-9.
    struct Opened: Decodable, Sendable, Hashable {
      var url: String
      var universalLinksOnly: Bool?
      var options: [String: String]?

      enum CodingKeys: String, CodingKey, CaseIterable {
        case url, universalLinksOnly, options
      }
    }

    /// One value of `opened.options`, as written: `true`/`false`, a number's digits, or a quoted string.
    struct OptionValue: Decodable {
      var written: String

      init(from decoder: any Decoder) throws {
        let value = try decoder.singleValueContainer()
        if let flag = try? value.decode(Bool.self) {
          written = flag ? "true" : "false"
        } else if let number = try? value.decode(Int.self) {
          written = String(number)
        } else if let number = try? value.decode(Double.self) {
          written = String(number)
        } else {
          written = Quoted.string(try value.decode(String.self))
        }
      }
    }

    /// One code request, decoded strictly.
    struct Authorization: Decodable {
      var request: AuthorizationRequest

      enum CodingKeys: String, CodingKey, CaseIterable {
        case clientID = "clientId"
        case redirectURI = "redirectUri"
        case scopes
      }

      init(from decoder: any Decoder) throws {
        let container = try decoder.strictContainer(keyedBy: CodingKeys.self)
        request = AuthorizationRequest(
          clientID: try container.decode(String.self, forKey: .clientID),
          redirectURI: try container.decode(String.self, forKey: .redirectURI),
          scopes: try container.decode([String].self, forKey: .scopes))
      }
    }

    /// `{"reason": …}` or `{"message": …}`: one string field, named by `Key`'s one case.
    struct Text<Key: CodingKey & CaseIterable>: Decodable {
      var text: String

      init(from decoder: any Decoder) throws {
        text = try decoder.strictContainer(keyedBy: Key.self).decode(String.self, forKey: Key.allCases.first!)
      }
    }

    enum ReasonKey: String, CodingKey, CaseIterable {
      case reason
    }

    enum MessageKey: String, CodingKey, CaseIterable {
      case message
    }

    enum CodingKeys: String, CodingKey, CaseIterable {
      case seq, opened, authorization, skipped, errored
    }

    /// The fields of a version 2 response: the harness saw the code requests itself, so there is no `authorization`.
    enum SecondVersionKeys: String, CodingKey, CaseIterable {
      case seq, opened, skipped, errored
    }

    init(from decoder: any Decoder) throws {
      let version = decoder.userInfo[SubprocessProtocol.versionKey] as? Int ?? 1
      if version >= 2 { _ = try decoder.strictContainer(keyedBy: SecondVersionKeys.self) }
      let container = try decoder.strictContainer(keyedBy: CodingKeys.self)
      _ = try container.decode(Int.self, forKey: .seq)
      let kinds = [CodingKeys.opened, .authorization, .skipped, .errored].filter(container.contains)
      if version >= 2 && kinds == [.opened] {
        self = .handled(
          opened: try container.decodeNil(forKey: .opened) ? nil : try container.decode(Opened.self, forKey: .opened),
          authorization: [])
      } else if kinds == [.skipped] {
        self = .skipped(reason: try container.decode(Text<ReasonKey>.self, forKey: .skipped).text)
      } else if kinds == [.errored] {
        self = .errored(message: try container.decode(Text<MessageKey>.self, forKey: .errored).text)
      } else if version == 1 && kinds == [.opened, .authorization] {
        self = .handled(
          opened: try container.decodeNil(forKey: .opened) ? nil : try container.decode(Opened.self, forKey: .opened),
          authorization: try container.decode([Authorization].self, forKey: .authorization).map(\.request))
      } else {
        let handled = version == 1 ? "\"opened\" and \"authorization\"" : "\"opened\""
        let present =
          kinds.isEmpty
          ? "none of \(handled), \"skipped\", \"errored\""
          : kinds.map { "\"\($0.stringValue)\"" }.joined(separator: ", ")
        throw DecodingError.dataCorrupted(
          DecodingError.Context(
            codingPath: [],
            debugDescription: "has \(present); a response carries either \(handled), or \"skipped\", or \"errored\""
          ))
      }
    }
  }
}

extension SubprocessProtocol.Response.Opened {
  /// Decodes strictly; declared here, so the fast reader keeps the memberwise initializer.
  init(from decoder: any Decoder) throws {
    let container = try decoder.strictContainer(keyedBy: CodingKeys.self)
    url = try container.decode(String.self, forKey: .url)
    universalLinksOnly = try container.decodeIfPresent(Bool.self, forKey: .universalLinksOnly)
    options = try container.decodeIfPresent(
      [String: SubprocessProtocol.Response.OptionValue].self, forKey: .options)?.mapValues(\.written)
  }
}
