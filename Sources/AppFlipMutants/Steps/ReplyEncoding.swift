import Foundation

/// The encode step: writing the reply's parameters after the base URL.
public enum ReplyEncoding {
  /// The RFC 3986 unreserved characters, the only ones left literal by the correct encoder.
  static let unreserved = CharacterSet(
    charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")

  /// Correct: every byte but the unreserved ones percent-encoded, so RFC 3986 and form decoders agree (AF-RE-6).
  @Sendable public static func percentEncoded(_ parameters: ReplyParameters, _ base: String) -> String {
    base + "?" + parameters.map { "\(encode($0.name))=\(encode($0.value))" }.joined(separator: "&")
  }

  /// Bug: sets `URLComponents.queryItems`, which leaves `+` literal (form decoders read a space), as Google's sample does.
  @Sendable public static func queryItems(_ parameters: ReplyParameters, _ base: String) -> String {
    guard var components = URLComponents(string: base) else { return percentEncoded(parameters, base) }
    components.queryItems = parameters.map { URLQueryItem(name: $0.name, value: $0.value) }
    return components.string ?? percentEncoded(parameters, base)
  }

  /// Bug: form-encodes, writing a space as `+` (RFC 3986 decoders read a plus).
  @Sendable public static func formEncoded(_ parameters: ReplyParameters, _ base: String) -> String {
    percentEncoded(parameters, base).replacingOccurrences(of: "%20", with: "+")
  }

  /// Bug: builds the URL by string interpolation with no encoding at all, as Google's sample app does.
  @Sendable public static func interpolated(_ parameters: ReplyParameters, _ base: String) -> String {
    "\(base)?" + parameters.map { "\($0.name)=\($0.value)" }.joined(separator: "&")
  }

  /// Bug: appends a `#appflip` fragment to mark where the URL came from.
  @Sendable public static func withFragment(_ parameters: ReplyParameters, _ base: String) -> String {
    percentEncoded(parameters, base) + "#appflip"
  }

  static func encode(_ string: String) -> String {
    string.addingPercentEncoding(withAllowedCharacters: unreserved) ?? string
  }
}
