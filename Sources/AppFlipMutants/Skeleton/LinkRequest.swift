/// An incoming App Flip link as a partner handler reads it: its parameters, and the four App Flip values.
public struct LinkRequest: Sendable, Hashable {
  /// Every parameter, in order.
  public var parameters: [LinkParameter]
  /// `redirect_uri`.
  public var redirectURI: LinkValue
  /// `client_id`.
  public var clientID: LinkValue
  /// `state`.
  public var state: LinkValue
  /// `scope`.
  public var scope: LinkValue

  /// Reads the App Flip values out of the parameters with `read`.
  public init(parameters: [LinkParameter], read: ([LinkParameter], String) -> LinkValue) {
    self.parameters = parameters
    redirectURI = read(parameters, "redirect_uri")
    clientID = read(parameters, "client_id")
    state = read(parameters, "state")
    scope = read(parameters, "scope")
  }

  /// The requested scopes (space-separated), or `nil` when `scope` is duplicated or malformed; absent means none.
  public var scopes: [String]? {
    switch scope {
    case .missing: []
    case .duplicated, .malformed: nil
    case .value(let text): text.split(separator: " ").map(String.init)
    }
  }
}

/// One `name=value` pair of an incoming link as a partner handler splits it; `nil` marks a part that did not decode.
public struct LinkParameter: Sendable, Hashable {
  /// The decoded name, or `nil` when its escapes are broken.
  public var name: String?
  /// The decoded value (empty for a bare name), or `nil` when its escapes are broken or it is not UTF-8.
  public var value: String?
}

/// What a partner handler reads for one App Flip parameter: a usable value, or why there is none.
public enum LinkValue: Sendable, Hashable {
  /// Absent, empty, or a bare name without `=` (AF-IN-1).
  case missing
  /// Given more than once (AF-IN-2).
  case duplicated
  /// A broken escape or invalid UTF-8 (AF-IN-6).
  case malformed
  /// Exactly one non-empty value.
  case value(String)

  /// Reads one occurrence: `nil` when the parameter is absent, `.some(nil)` when its value did not decode.
  public init(occurrence: String??) {
    switch occurrence {
    case .none: self = .missing
    case .some(.none): self = .malformed
    case .some(.some(let text)): self = text.isEmpty ? .missing : .value(text)
    }
  }

  /// The value when there is exactly one usable one.
  public var text: String? {
    if case .value(let text) = self { return text }
    return nil
  }
}
