import AppFlip

/// How an app-side finding reads at the authorization endpoint (APPFLIP-RULES AF-EP-1..5).
enum EndpointRules {
  /// Response parameters a server may add to its redirect: RFC 9207 `iss`, OpenID Connect Session Management
  /// `session_state` (AF-RE-8 does not apply to them at the endpoint).
  static let allowedParameters: Set<String> = ["iss", "session_state"]

  /// Tokens, which a code-flow redirect never carries (AF-RE-8's exception at the endpoint).
  static let tokenParameters: Set<String> = ["access_token", "id_token", "refresh_token"]

  /// The finding under the endpoint rule of its vector (AF-EP-1 accepted, AF-EP-2 ignored, AF-EP-4 where the vector
  /// cites it, AF-EP-3 for a refusal), naming the app-side check it comes from; `nil` for what is allowed here.
  ///
  /// Another parameter in the redirect (AF-RE-8) is informational (MAY) at the endpoint, where RFC 6749 §4.1.2 tells
  /// the client to ignore what it does not know (`scope`, `client_id`), unless it is a token.
  static func finding(_ finding: Finding, verdict: Verdict, rules: [String]) -> Finding? {
    let parameter = String(finding.field.dropFirst("reply.".count))
    if finding.rule == "AF-RE-8", allowedParameters.contains(parameter) {
      return nil
    }
    var mapped = finding
    mapped.message = "\(finding.message) (\(finding.rule), as for an app)"
    if finding.rule == "AF-RE-8", !tokenParameters.contains(parameter) {
      mapped.level = .may
      mapped.message += "; informational at the endpoint, where RFC 6749 §4.1.2 has the client ignore it"
    }
    if finding.rule == "AF-RE-6" {
      // A server-side redirect is form-encoded (RFC 6749 Appendix B): space as + is its own encoding.
      mapped.rule = "AF-EP-5"
      mapped.level = .may
      mapped.message += "; informational at the endpoint, where RFC 6749 Appendix B form-encodes the redirect"
      return mapped
    }
    let strict = rules.contains("AF-EP-4")
    switch verdict {
    case .accepted:
      mapped.rule = "AF-EP-1"
    case .ignored:
      mapped.rule = strict ? "AF-EP-4" : "AF-EP-2"
    case .rejected:
      if strict && finding.field == "reply.code" {
        mapped.rule = "AF-EP-4"
        mapped.message += "; a code is issued only for a client_id byte-equal to the registered one"
      } else {
        mapped.rule = "AF-EP-3"
        mapped.level = min(mapped.level, .should)
        if finding.field == "opened" && finding.actual == "nothing" {
          mapped.message +=
            "; Google asks for invalid_request at the redirect_uri, and RFC 6749 §4.1.2.1's error page is the other"
            + " accepted reading, so this is no failure"
        }
      }
    }
    return mapped
  }
}
