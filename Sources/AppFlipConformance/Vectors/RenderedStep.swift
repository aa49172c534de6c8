import AppFlip

/// A vector step with the partner's configuration filled in: the exact link to send and the exact expectation.
package struct RenderedStep: Sendable, Hashable {
  /// The incoming link, byte for byte.
  package var link: String
  /// What the scripted authorization service answers.
  package var outcome: AuthorizationOutcome
  /// What a conformant handler does, placeholders substituted: the preferred answer.
  package var expect: RenderedExpectation
  /// The other answers the sources allow, placeholders substituted (AF-IN-8).
  package var alternatives: [Alternative]
  /// The allowed URL `{redirect_uri}` stood for.
  package var redirectURI = ""
  /// Why the expectation differs from the vector's on the target platform, added to the step's findings; `nil` when
  /// it does not (`DeliveryPlatform.deliver`).
  package var deliveryNote: String?
  /// The link as Google sent it, when the target platform delivers it in another form (`link`); `nil` when it arrives
  /// as sent (`DeliveryPlatform.deliver`).
  package var sentLink: String?

  /// Creates a rendered step.
  package init(
    link: String, outcome: AuthorizationOutcome, expect: RenderedExpectation, alternatives: [Alternative] = []
  ) {
    self.link = link
    self.outcome = outcome
    self.expect = expect
    self.alternatives = alternatives
  }

  /// Fills in every step of a vector, `{redirect_uri}` standing for the vector's allowed URL
  /// (`PartnerConfiguration.redirectSlot(for:)`); when a transform cannot apply to that URL, the next one that it can
  /// apply to is taken, so a near-miss that needs an escape or a suffix runs whenever one allowed URL has it.
  ///
  /// Endpoint vectors keep the first allowed URL, the one the preflight proves: they send each of Google's twelve
  /// URLs in vectors of their own (AF-EP-1).
  package static func render(
    _ vector: Vector, with configuration: PartnerConfiguration, profile: VectorFile.Profile = .app
  ) -> Result<[RenderedStep], SkipReason> {
    let urls = configuration.allowList.urls
    let slot = profile == .app ? configuration.redirectSlot(for: vector.id) : 0
    let tries = profile == .app ? max(urls.count, 1) : 1
    var first: SkipReason?
    for offset in 0..<tries {
      let redirectURI = urls.isEmpty ? "" : urls[(slot + offset) % urls.count]
      do throws(SkipReason) {
        return .success(
          try vector.steps.map { step throws(SkipReason) in
            try render(step, with: configuration, profile: profile, redirectURI: redirectURI)
          })
      } catch {
        if first == nil { first = error }
        // Only a `{redirect_uri…}` transform can apply to another allowed URL.
        guard error.isRedirectURITransform else { break }
      }
    }
    guard var reason = first else { return .success([]) }
    if tries > 1, reason.isRedirectURITransform { reason.message += " (nor has any other allowed URL)" }
    return .failure(reason)
  }

  /// Fills in a step, or a skip reason when it does not apply to the configuration.
  ///
  /// An expectation answered at one of Google's App Flip URLs that the partner's allow-list leaves out becomes
  /// "ignored", and `invalid_request` there (with the state each answer would return) its alternatives: it is Google's
  /// own link, so opening nothing and refusing it there both pass (AF-RU-5). One answered at any other URL the
  /// allow-list leaves out, or a transform that cannot change the configured value, skips the vector with the reason.
  ///
  /// Endpoint vectors are never made "ignored": the server must accept every one of Google's URLs (AF-EP-1), so one
  /// the configuration leaves out skips the vector.
  package static func render(
    _ step: Vector.Step, with configuration: PartnerConfiguration, profile: VectorFile.Profile = .app,
    redirectURI: String? = nil
  ) throws(SkipReason) -> RenderedStep {
    let plain = Substitution(configuration: configuration, encoded: false, redirectURI: redirectURI)
    var expect = try render(step.expect, plain)
    var alternatives: [Alternative] = []
    for alternative in step.alternatives {
      alternatives.append(
        Alternative(
          rule: alternative.rule, reading: alternative.reading, warns: alternative.warns,
          expect: try render(alternative.expect, plain)))
    }
    if let offList = try googleURLOffList(expect, configuration, profile) {
      // AF-RU-5: opening nothing is preferred; invalid_request there, with the state an answer would return, passes.
      var refusals: [Alternative] = []
      for answer in [expect] + alternatives.map(\.expect) {
        guard let reply = answer.reply, Bytes.equal(reply.base, offList) else { continue }
        let refused = RenderedExpectation(
          verdict: .rejected,
          reply: RenderedReply(base: offList, stateBytes: reply.stateBytes, error: .invalidRequest))
        if !refusals.contains(where: { $0.expect == refused }) {
          refusals.append(
            Alternative(
              rule: "AF-RU-5", reading: "invalid_request to Google's own URL the allow-list leaves out",
              expect: refused))
        }
      }
      expect = RenderedExpectation(verdict: .ignored)
      alternatives = refusals
    }
    let link: String
    switch step.incoming {
    case .raw(let raw):
      link = try Substitution(configuration: configuration, encoded: true, redirectURI: redirectURI).apply(raw).get()
    case .params(let parameters, let base):
      // The start is filled in first, but a parameter's skip reason still comes before its own.
      let start = plain.apply(base ?? "{universal_link}")
      guard !parameters.isEmpty else {
        link = try start.get()
        break
      }
      // One buffer for the whole link, with room for a typical one up front.
      var bytes: [UInt8] = []
      bytes.reserveCapacity(512)
      if case .success(let start) = start {
        LinkBytes.append(start, to: &bytes)
        bytes.append(LinkBytes.contains(start, UInt8(ascii: "?")) ? UInt8(ascii: "&") : UInt8(ascii: "?"))
      }
      for (index, parameter) in parameters.enumerated() {
        if index > 0 { bytes.append(UInt8(ascii: "&")) }
        LinkBytes.appendEncoded(try plain.apply(parameter.name).get(), to: &bytes)
        if let value = parameter.value {
          bytes.append(UInt8(ascii: "="))
          LinkBytes.appendEncoded(try plain.apply(value).get(), to: &bytes)
        }
      }
      _ = try start.get()
      link = String(decoding: bytes, as: UTF8.self)
    }
    var rendered = RenderedStep(
      link: link, outcome: step.outcome?.authorizationOutcome ?? .granted(code: "unexpected-code"), expect: expect,
      alternatives: alternatives)
    rendered.redirectURI = redirectURI ?? configuration.primaryRedirectURI
    return rendered
  }

  /// An expectation with its placeholders filled in.
  static func render(_ expectation: Vector.Expectation, _ plain: Substitution) throws(SkipReason) -> RenderedExpectation
  {
    var expect = RenderedExpectation(verdict: expectation.verdict, association: expectation.association)
    if var authorization = expectation.authorization {
      authorization.clientID = try plain.apply(authorization.clientID).get()
      authorization.redirectURI = try plain.apply(authorization.redirectURI).get()
      if let scopes = authorization.scopes, scopes.contains(where: { LinkBytes.contains($0, UInt8(ascii: "{")) }) {
        authorization.scopes = try render(scopes: scopes, plain)
      }
      expect.authorization = authorization
    }
    if let reply = expectation.reply {
      let base = try plain.apply(reply.base).get()
      let stateBytes: [UInt8]?
      if let stateHex = reply.stateHex {
        stateBytes = Hex.bytes(stateHex)
      } else if let state = reply.state {
        stateBytes = Array(try plain.apply(state).get().utf8)
      } else {
        stateBytes = nil
      }
      expect.reply = RenderedReply(
        base: base, code: reply.code, stateBytes: stateBytes, error: reply.error)
    }
    return expect
  }

  /// The URL an app expectation answers at when it is one of Google's twelve that the allow-list leaves out; `nil` when
  /// the allow-list holds it or it answers nowhere. Any other URL left out skips the vector, and so does any URL left
  /// out for an endpoint vector (AF-EP-1).
  static func googleURLOffList(
    _ expect: RenderedExpectation, _ configuration: PartnerConfiguration, _ profile: VectorFile.Profile
  ) throws(SkipReason) -> String? {
    guard let answeredAt = expect.reply?.base ?? expect.authorization?.redirectURI,
      !configuration.allowList.urls.contains(where: { Bytes.equal($0, answeredAt) })
    else { return nil }
    guard profile == .app, RedirectAllowList.google.urls.contains(where: { Bytes.equal($0, answeredAt) }) else {
      throw SkipReason(
        message: "expects an answer at \(Quoted.string(answeredAt)), which the partner's allow-list leaves out")
    }
    return answeredAt
  }

  /// Expected scopes with their placeholders filled in: `{scopes}` on its own is the configured list (most vectors'
  /// only element), anything else one scope.
  private static func render(scopes: [String], _ plain: Substitution) throws(SkipReason) -> [String] {
    let configuration = plain.configuration
    func isList(_ scope: String) -> Bool {
      if case .plain(.scopes) = Placeholder.shape(of: scope) { true } else { false }
    }
    if scopes.count == 1 && isList(scopes[0]) { return configuration.scopes }
    var rendered: [String] = []
    for scope in scopes {
      if isList(scope) { rendered += configuration.scopes } else { rendered.append(try plain.apply(scope).get()) }
    }
    return rendered
  }

  /// Why a vector does not apply to a configuration.
  package struct SkipReason: Error, Sendable, Hashable {
    /// One sentence.
    package var message: String
    /// Whether a transform of `{redirect_uri}` could not change the allowed URL (another URL may do).
    var isRedirectURITransform = false

    /// Creates a reason.
    package init(message: String, isRedirectURITransform: Bool = false) {
      self.message = message
      self.isRedirectURITransform = isRedirectURITransform
    }

    /// The reason a placeholder gives when it cannot be filled in from the configured value.
    static func notApplicable(_ why: String, isRedirectURITransform: Bool = false) -> SkipReason {
      SkipReason(
        message: "does not apply to this configuration: " + why, isRedirectURITransform: isRedirectURITransform)
    }
  }
}
