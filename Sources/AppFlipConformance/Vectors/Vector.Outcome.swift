import AppFlip

extension Vector {
  /// The scripted answer of the partner's OAuth server and user, in JSON `{"result": "granted", "code": "c1"}`.
  package struct Outcome: Sendable, Hashable, Codable {
    /// The kinds of outcome a vector can script.
    package enum Result: String, Sendable, Hashable, Codable, CaseIterable {
      /// A code is granted.
      case granted
      /// The user failed to sign in.
      case signInFailed = "sign-in-failed"
      /// The device is offline.
      case offline
      /// The connection timed out.
      case timedOut = "timed-out"
      /// The account is disabled.
      case accountDisabled = "account-disabled"
      /// The user denied consent.
      case consentDenied = "consent-denied"
    }

    /// What happened.
    package var result: Result
    /// The granted code; required for `granted`, absent otherwise.
    package var code: String?

    /// Creates an outcome.
    package init(result: Result, code: String? = nil) {
      self.result = result
      self.code = code
    }

  }
}

extension Vector.Outcome {
  enum CodingKeys: String, CodingKey, CaseIterable {
    case result, code
  }

  /// Decodes strictly: a field the format does not define is refused.
  package init(from decoder: any Decoder) throws {
    let container = try decoder.strictContainer(keyedBy: CodingKeys.self)
    result = try container.decode(Result.self, forKey: .result)
    code = try container.decodeIfPresent(String.self, forKey: .code)
    if (result == .granted) != (code != nil) {
      throw DecodingError.dataCorruptedError(
        forKey: .code, in: container,
        debugDescription: result == .granted
          ? "a granted outcome needs a \"code\"" : "only a granted outcome has a \"code\"")
    }
  }

  /// The vector-file form of a model's outcome: the fuzzer's vectors and the subprocess protocol's messages write it.
  init(_ outcome: AuthorizationOutcome) {
    switch outcome {
    case .granted(let code): self.init(result: .granted, code: code)
    case .signInFailed: self.init(result: .signInFailed)
    case .offline: self.init(result: .offline)
    case .timedOut: self.init(result: .timedOut)
    case .accountDisabled: self.init(result: .accountDisabled)
    case .consentDenied: self.init(result: .consentDenied)
    }
  }

  /// The model's outcome this scripts.
  package var authorizationOutcome: AuthorizationOutcome {
    switch result {
    case .granted: .granted(code: code ?? "")
    case .signInFailed: .signInFailed
    case .offline: .offline
    case .timedOut: .timedOut
    case .accountDisabled: .accountDisabled
    case .consentDenied: .consentDenied
    }
  }
}
