/// The result a partner handler returns to Google, before it is written into a URL.
public enum PartnerResult: Sendable, Hashable {
  /// A granted code and the state to return with it.
  case code(String, state: String)
  /// An `error` value, an optional `error_description`, and the state to return, if any.
  case error(String, description: String?, state: String?)
}
