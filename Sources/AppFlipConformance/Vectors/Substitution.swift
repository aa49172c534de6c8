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

  func apply(_ string: String) -> Result<String, RenderedStep.SkipReason> {
    switch Placeholder.shape(of: string) {
    case .literal:
      return .success(string)
    case .plain(let name):
      // Most templates are one bare placeholder and nothing else: its value is the result, found without tokens.
      return value(of: Placeholder(name: name, transforms: []))
    case .tokens:
      break
    }
    let tokens = Placeholder.tokens(in: string)
    guard !tokens.isEmpty else { return .success(string) }
    // A template that is one placeholder with transforms: its value is the result, with no bytes to splice.
    if tokens.count == 1, tokens[0].range == 0..<string.utf8.count, case .success(let placeholder) = tokens[0].parsed {
      return value(of: placeholder)
    }
    // The text between the tokens and each value, written once into one buffer; when several placeholders cannot be
    // filled in, the last one's reason is given, as when the tokens were filled in from the end.
    var template = string
    return template.withUTF8 { bytes in
      var out: [UInt8] = []
      out.reserveCapacity(bytes.count + 128)
      var copied = 0
      var failure: RenderedStep.SkipReason?
      for token in tokens {
        guard case .success(let placeholder) = token.parsed else { continue }
        switch placeholder.value(in: configuration, redirectURI: redirectURI) {
        case .failure(let reason):
          failure = reason
        case .success(let text):
          out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[copied..<token.range.lowerBound]))
          if encoded && placeholder.isEncodedInRawLinks {
            LinkBytes.appendEncoded(text, to: &out)
          } else if encoded && placeholder.part != nil {
            LinkBytes.appendEncoded(text, to: &out, keeping: Substitution.queryURLSyntax)
          } else {
            LinkBytes.append(text, to: &out)
          }
          copied = token.range.upperBound
        }
      }
      if let failure { return .failure(failure) }
      out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[copied...]))
      return .success(String(decoding: out, as: UTF8.self))
    }
  }

  /// A placeholder's value, percent-encoded when this substitution encodes and the placeholder is data in the query.
  private func value(of placeholder: Placeholder) -> Result<String, RenderedStep.SkipReason> {
    placeholder.value(in: configuration, redirectURI: redirectURI).map {
      encoded && placeholder.isEncodedInRawLinks ? PercentEncoding.encode($0) : $0
    }
  }

  /// What a part of the redirect URI keeps unencoded in a raw link's query: RFC 3986's query characters but `%`, `&`
  /// and `+`, which one decoding (or a form decoder) would read otherwise.
  static let queryURLSyntax = ByteSet { byte in
    PercentEncoding.isUnreserved(byte) || "!$'()*,;=:@/?".utf8.contains(byte)
  }
}
