/// The reply step: the parameters, in order, a result is returned with.
public enum ReplyBuilding {
  /// Correct: `code` and `state`, or `error`, an optional `error_description` and the state when there was one.
  @Sendable public static func standard(_ result: PartnerResult, _ request: LinkRequest) -> ReplyParameters {
    switch result {
    case .code(let code, let state):
      return [("code", code), ("state", state)]
    case .error(let error, let description, let state):
      return [("error", error)] + (description.map { [("error_description", $0)] } ?? [])
        + (state.map { [("state", $0)] } ?? [])
    }
  }

  /// Bug: writes an empty `code` into error replies too, as a reply template with every field does.
  @Sendable public static func codeInErrors(_ result: PartnerResult, _ request: LinkRequest) -> ReplyParameters {
    guard case .error = result else { return standard(result, request) }
    return [("code", "")] + standard(result, request)
  }

  /// Bug: returns the code without `state`.
  @Sendable public static func stateNotEchoed(_ result: PartnerResult, _ request: LinkRequest) -> ReplyParameters {
    guard case .code(let code, _) = result else { return standard(result, request) }
    return [("code", code)]
  }

  /// Bug: returns errors without `state`, as Google's sample app does.
  @Sendable public static func stateDroppedFromErrors(_ result: PartnerResult, _ request: LinkRequest)
    -> ReplyParameters
  {
    guard case .error(let error, let description, _) = result else { return standard(result, request) }
    return standard(.error(error, description: description, state: nil), request)
  }

  /// Bug: echoes the incoming `client_id` in every reply.
  @Sendable public static func clientIDEchoed(_ result: PartnerResult, _ request: LinkRequest) -> ReplyParameters {
    standard(result, request) + [("client_id", request.clientID.text ?? "")]
  }

  /// Bug: puts the reason for an error in double quotes, outside RFC 6749's NQSCHAR.
  @Sendable public static func quotedDescription(_ result: PartnerResult, _ request: LinkRequest) -> ReplyParameters {
    guard case .error(let error, let description?, let state) = result else { return standard(result, request) }
    return standard(.error(error, description: "\"\(description)\"", state: state), request)
  }
}
