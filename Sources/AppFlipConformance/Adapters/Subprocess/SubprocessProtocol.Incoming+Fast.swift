import AppFlip

extension SubprocessProtocol.Incoming {
  /// An ordinary, valid line read with `JSONSyntax.value(of:)`; nil for anything else (an unknown or missing field, a
  /// wrong type, `opened.options`, a duplicate key), which `JSONDecoder` then reads and explains.
  init?(fast line: [UInt8], version: Int) {
    guard let message = JSONSyntax.value(of: line), let seq = message["seq"]?.int else { return nil }
    if version >= 2, let body = message["codeRequest"] {
      guard message.count == 2, let request = Self.authorization(body) else { return nil }
      envelope = SubprocessProtocol.Envelope(version: nil, seq: seq, isCodeRequest: true)
      codeRequest = .success(SubprocessProtocol.CodeRequest(seq: seq, request: request))
      return
    }
    envelope = SubprocessProtocol.Envelope(version: nil, seq: seq, isCodeRequest: message["codeRequest"] != nil)
    if message.hasExactly("seq", "skipped"), let skipped = message["skipped"], skipped.count == 1,
      let reason = skipped["reason"]?.string
    {
      response = .success(.skipped(reason: reason))
    } else if message.hasExactly("seq", "errored"), let errored = message["errored"], errored.count == 1,
      let text = errored["message"]?.string
    {
      response = .success(.errored(message: text))
    } else if version >= 2, message.hasExactly("seq", "opened"), let opened = Self.opened(message["opened"]) {
      response = .success(.handled(opened: opened, authorization: []))
    } else if version == 1, message.hasExactly("seq", "opened", "authorization"),
      let opened = Self.opened(message["opened"]), case .array(let items)? = message["authorization"]
    {
      let requests = items.compactMap(Self.authorization)
      guard requests.count == items.count else { return nil }
      response = .success(.handled(opened: opened, authorization: requests))
    } else {
      return nil
    }
  }

  /// `{"clientId": …, "redirectUri": …, "scopes": […]}`, exactly.
  private static func authorization(_ value: JSONSyntax.Value) -> AuthorizationRequest? {
    guard value.count == 3, let clientID = value["clientId"]?.string, let redirectURI = value["redirectUri"]?.string,
      case .array(let items)? = value["scopes"]
    else { return nil }
    var scopes: [String] = []
    for item in items {
      guard let scope = item.string else { return nil }
      scopes.append(scope)
    }
    return AuthorizationRequest(clientID: clientID, redirectURI: redirectURI, scopes: scopes)
  }

  /// `null` (`.some(nil)`), or `{"url": …}` with `universalLinksOnly` true or false at most; nil for anything else.
  private static func opened(_ value: JSONSyntax.Value?) -> SubprocessProtocol.Response.Opened?? {
    switch value {
    case .null?: return .some(nil)
    case let value?:
      guard let url = value["url"]?.string else { return nil }
      switch (value.count, value["universalLinksOnly"]) {
      case (1, nil): return SubprocessProtocol.Response.Opened(url: url, universalLinksOnly: nil, options: nil)
      case (2, .bool(let flag)?):
        return SubprocessProtocol.Response.Opened(url: url, universalLinksOnly: flag, options: nil)
      default: return nil
      }
    default: return nil
    }
  }
}

extension JSONSyntax.Value {
  /// The number as an `Int`, when it is a whole one that fits.
  fileprivate var int: Int? { if case .number(let text) = self { Int(text) } else { nil } }

  /// The string, when it is one.
  fileprivate var string: String? { if case .string(let text) = self { text } else { nil } }

  /// How many fields the object has; -1 for any other value.
  fileprivate var count: Int { if case .object(let fields) = self { fields.count } else { -1 } }

  /// Whether this is an object with exactly the fields `names`, in any order.
  fileprivate func hasExactly(_ names: String...) -> Bool {
    count == names.count && names.allSatisfy { self[$0] != nil }
  }
}
