import AppFlip

extension SubprocessProtocol.Incoming {
  /// An ordinary, valid line read with `SubprocessFastJSON`; nil for anything else (an unknown or missing field, a
  /// wrong type, `opened.options`, a duplicate key), which `JSONDecoder` then reads and explains.
  init?(fast line: [UInt8], version: Int) {
    guard case .object(let fields)? = SubprocessFastJSON.parse(line), case .int(let seq)? = fields["seq"] else {
      return nil
    }
    if version >= 2, let body = fields["codeRequest"] {
      guard fields.count == 2, let request = Self.authorization(body) else { return nil }
      envelope = SubprocessProtocol.Envelope(version: nil, seq: seq, isCodeRequest: true)
      codeRequest = .success(SubprocessProtocol.CodeRequest(seq: seq, request: request))
      return
    }
    envelope = SubprocessProtocol.Envelope(version: nil, seq: seq, isCodeRequest: fields["codeRequest"] != nil)
    if fields.hasExactly("seq", "skipped"), case .object(let skipped)? = fields["skipped"], skipped.count == 1,
      case .string(let reason)? = skipped["reason"]
    {
      response = .success(.skipped(reason: reason))
    } else if fields.hasExactly("seq", "errored"), case .object(let errored)? = fields["errored"], errored.count == 1,
      case .string(let message)? = errored["message"]
    {
      response = .success(.errored(message: message))
    } else if version >= 2, fields.hasExactly("seq", "opened"), let opened = Self.opened(fields["opened"]) {
      response = .success(.handled(opened: opened, authorization: []))
    } else if version == 1, fields.hasExactly("seq", "opened", "authorization"),
      let opened = Self.opened(fields["opened"]),
      case .array(let items)? = fields["authorization"]
    {
      let requests = items.compactMap(Self.authorization)
      guard requests.count == items.count else { return nil }
      response = .success(.handled(opened: opened, authorization: requests))
    } else {
      return nil
    }
  }

  /// `{"clientId": …, "redirectUri": …, "scopes": […]}`, exactly.
  private static func authorization(_ value: SubprocessFastJSON.Value) -> AuthorizationRequest? {
    guard case .object(let fields) = value, fields.count == 3, case .string(let clientID)? = fields["clientId"],
      case .string(let redirectURI)? = fields["redirectUri"], case .array(let items)? = fields["scopes"]
    else { return nil }
    var scopes: [String] = []
    for item in items {
      guard case .string(let scope) = item else { return nil }
      scopes.append(scope)
    }
    return AuthorizationRequest(clientID: clientID, redirectURI: redirectURI, scopes: scopes)
  }

  /// `null` (`.some(nil)`), or `{"url": …}` with `universalLinksOnly` true or false at most; nil for anything else.
  private static func opened(_ value: SubprocessFastJSON.Value?) -> SubprocessProtocol.Response.Opened?? {
    switch value {
    case .null?: return .some(nil)
    case .object(let fields)?:
      guard case .string(let url)? = fields["url"] else { return nil }
      switch (fields.count, fields["universalLinksOnly"]) {
      case (1, nil): return SubprocessProtocol.Response.Opened(url: url, universalLinksOnly: nil, options: nil)
      case (2, .bool(let flag)?):
        return SubprocessProtocol.Response.Opened(url: url, universalLinksOnly: flag, options: nil)
      default: return nil
      }
    default: return nil
    }
  }
}
