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
