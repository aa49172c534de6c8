import AppFlip

/// Fills in `{client_id}`, `{universal_link}`, `{redirect_uri}` and their parts and transforms (`Placeholder`).
///
/// In raw links a whole client id or redirect URI is percent-encoded, and a part of the redirect URI (URL syntax the
/// vector writes unencoded) is encoded only as far as the query needs for one decoding to give it back: `%`, `&`, `+`,
/// `#` and what RFC 3986 does not allow in a query, so a configured `%2B` arrives as `%2B`, not as `+`.
struct Substitution {
  var configuration: PartnerConfiguration
  var encoded: Bool
  /// The URL `{redirect_uri}` stands for; `nil`: the first allowed one.
  var redirectURI: String? = nil

  /// `string` with its placeholders filled in; when several cannot be, the last one's reason.
  func apply(_ string: String) -> Result<String, RenderedStep.SkipReason> {
    let tokens = Placeholder.tokens(in: string)
    let bytes = Array(string.utf8)
    // A part of the redirect URI that is the whole template is its value as it is.
    let isWhole = tokens.count == 1 && tokens[0].range == 0..<bytes.count
    var out: [UInt8] = []
    var copied = 0
    var failure: RenderedStep.SkipReason?
    for token in tokens {
      guard case .success(let placeholder) = token.parsed else { continue }
      switch placeholder.value(in: configuration, redirectURI: redirectURI) {
      case .failure(let reason):
        failure = reason
      case .success(let text):
        out += bytes[copied..<token.range.lowerBound]
        if encoded && placeholder.isEncodedInRawLinks {
          out += PercentEncoding.encode(text).utf8
        } else if encoded && placeholder.part != nil && !isWhole {
          out += LinkBytes.encoded(text, keeping: Substitution.queryURLSyntax).utf8
        } else {
          out += text.utf8
        }
        copied = token.range.upperBound
      }
    }
    if let failure { return .failure(failure) }
    out += bytes[copied...]
    return .success(String(decoding: out, as: UTF8.self))
  }

  /// What a part of the redirect URI keeps unencoded in a raw link's query: RFC 3986's query characters but `%`, `&`
  /// and `+`, which one decoding (or a form decoder) would read otherwise.
  static let queryURLSyntax = ByteSet { byte in
    PercentEncoding.isUnreserved(byte) || "!$'()*,;=:@/?".utf8.contains(byte)
  }
}
