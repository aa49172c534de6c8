import AppFlip

/// A vector step with the partner's configuration filled in: the exact link to send and the exact expectation.
public struct RenderedStep: Sendable, Hashable {
  /// The incoming link, byte for byte.
  public var link: String
  /// What the scripted authorization service answers.
  public var outcome: AuthorizationOutcome
  /// What a conformant handler does, placeholders substituted.
  public var expect: Vector.Expectation

  /// Fills in a step; `nil` with a reason when it names a redirect URL the partner's allow-list leaves out.
  public static func render(_ step: Vector.Step, with configuration: PartnerConfiguration) -> Result<
    RenderedStep, SkipReason
  > {
    let plain = Substitution(configuration: configuration, encoded: false)
    var expect = step.expect
    if var authorization = expect.authorization {
      authorization.clientId = plain.apply(authorization.clientId)
      authorization.redirectUri = plain.apply(authorization.redirectUri)
      expect.authorization = authorization
    }
    if var reply = expect.reply {
      reply.base = plain.apply(reply.base)
      guard configuration.allowList.contains(reply.base) else {
        return .failure(
          SkipReason(message: "expects a reply at \"\(reply.base)\", which the partner's allow-list leaves out"))
      }
      expect.reply = reply
    }
    let link: String
    switch step.incoming {
    case .raw(let raw):
      link = Substitution(configuration: configuration, encoded: true).apply(raw)
    case .params(let parameters, let base):
      let query = parameters.map { parameter in
        PercentEncoding.encode(plain.apply(parameter.name))
          + (parameter.value.map { "=" + PercentEncoding.encode(plain.apply($0)) } ?? "")
      }
      let start = plain.apply(base ?? "{universal_link}")
      link = query.isEmpty ? start : start + (start.contains("?") ? "&" : "?") + query.joined(separator: "&")
    }
    return .success(
      RenderedStep(
        link: link, outcome: step.outcome?.authorizationOutcome ?? .granted(code: "unexpected-code"), expect: expect))
  }

  /// Why a vector does not apply to a configuration.
  public struct SkipReason: Error, Sendable, Hashable {
    /// One sentence.
    public var message: String
  }
}

/// Replaces `{client_id}`, `{universal_link}` and `{redirect_uri}`; in raw links the first and last are percent-encoded.
struct Substitution {
  var configuration: PartnerConfiguration
  var encoded: Bool

  func apply(_ string: String) -> String {
    guard string.contains("{") else { return string }
    let encode: (String) -> String = encoded ? PercentEncoding.encode : { $0 }
    return
      string
      .replacingAll("{client_id}", with: encode(configuration.clientID))
      .replacingAll("{redirect_uri}", with: encode(configuration.primaryRedirectURI))
      .replacingAll("{universal_link}", with: configuration.universalLink)
  }
}

extension String {
  /// Replaces every occurrence of `target`, comparing bytes (Foundation-free and exact).
  func replacingAll(_ target: String, with replacement: String) -> String {
    var result = ""
    var rest = Substring(self)
    while let range = rest.range(of: target) {
      result += rest[..<range.lowerBound]
      result += replacement
      rest = rest[range.upperBound...]
    }
    return result + rest
  }
}

extension Substring {
  fileprivate func range(of target: String) -> Range<Index>? {
    let needle = Array(target.utf8)
    guard !needle.isEmpty else { return nil }
    var index = startIndex
    while index < endIndex {
      if self[index...].utf8.starts(with: needle) {
        let end = self.utf8.index(index, offsetBy: needle.count)
        return index..<end
      }
      index = self.index(after: index)
    }
    return nil
  }
}
