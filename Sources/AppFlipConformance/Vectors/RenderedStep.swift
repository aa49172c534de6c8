import AppFlip

/// A vector step with the partner's configuration filled in: the exact link to send and the exact expectation.
public struct RenderedStep: Sendable, Hashable {
  /// The incoming link, byte for byte.
  public var link: String
  /// What the scripted authorization service answers.
  public var outcome: AuthorizationOutcome
  /// What a conformant handler does, placeholders substituted.
  public var expect: Vector.Expectation

  /// Fills in a step, or a skip reason when it names a redirect URL the partner's allow-list leaves out.
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
      link =
        query.isEmpty
        ? start : start + (start.utf8.contains(UInt8(ascii: "?")) ? "&" : "?") + query.joined(separator: "&")
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
    guard string.utf8.contains(UInt8(ascii: "{")) else { return string }
    let encode: (String) -> String = encoded ? PercentEncoding.encode : { $0 }
    return
      string
      .replacingAll("{client_id}", with: encode(configuration.clientID))
      .replacingAll("{redirect_uri}", with: encode(configuration.primaryRedirectURI))
      .replacingAll("{universal_link}", with: configuration.universalLink)
  }
}

extension String {
  /// Replaces every occurrence of `target`, comparing UTF-8 bytes (exact, and blind to grapheme boundaries).
  func replacingAll(_ target: String, with replacement: String) -> String {
    let bytes = Array(utf8)
    let needle = Array(target.utf8)
    guard !needle.isEmpty, bytes.count >= needle.count else { return self }
    var result: [UInt8] = []
    result.reserveCapacity(bytes.count)
    var index = 0
    while index < bytes.count {
      if index + needle.count <= bytes.count && bytes[index..<index + needle.count].elementsEqual(needle) {
        result += replacement.utf8
        index += needle.count
      } else {
        result.append(bytes[index])
        index += 1
      }
    }
    return String(decoding: result, as: UTF8.self)
  }
}
