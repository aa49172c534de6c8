import AppFlip
import AppFlipConformance

/// A correct App Flip handler written from Google's page and RULES.md alone, sharing no code with the reference
/// handler or the model's link parsing: the tests' second opinion on what conformant means.
///
/// It reads the link as bytes (query from the first `?` to the first `#`, split on `&`, each name and value
/// percent-decoded once, `+` kept), checks `redirect_uri` first, then `client_id` byte for byte, then `state` and
/// `scope`, and writes every reply value with only `A-Z a-z 0-9 - . _ ~` literal. Where the sources leave room
/// (RULES.md "Decisions"), `Choices` picks the answer, so that a test can hold every defensible answer to the suite.
struct IndependentHandler: AppFlipHandler {
  /// The answers the sources leave open (RULES.md "Decisions"; APPFLIP-RULES AF-IN-8, AF-RU-5).
  struct Choices: Sendable, Hashable, CustomStringConvertible {
    /// A `state` whose bytes are not UTF-8: echoed exactly (the opaque reading) instead of refused.
    var echoesNonUTF8State = false
    /// A `scope` that does not decode (broken escape, not UTF-8): treated as absent instead of refused.
    var dropsUndecodableScope = false
    /// A `scope` holding a character outside RFC 6749 §3.3 `scope-token` (a tab): what is done with it.
    var outsideTokenScope = OutsideToken.forward
    /// `scope` absent or empty: refused with `invalid_request` instead of accepted with no scopes.
    var requiresScope = false
    /// `redirect_uri` twice with byte-identical allowed values: `invalid_request` there instead of nothing.
    var refusesRepeatedRedirect = false
    /// One of Google's twelve URLs the allow-list leaves out: `invalid_request` there instead of nothing (AF-RU-5).
    var refusesGoogleURLOffList = false

    enum OutsideToken: String, Sendable, Hashable {
      case forward, refuse, drop
    }

    var description: String {
      var set: [String] = []
      if echoesNonUTF8State { set.append("echoes a non-UTF-8 state") }
      if dropsUndecodableScope { set.append("drops an undecodable scope") }
      if outsideTokenScope != .forward { set.append("\(outsideTokenScope.rawValue)s a scope outside scope-token") }
      if requiresScope { set.append("requires scope") }
      if refusesRepeatedRedirect { set.append("refuses a repeated redirect_uri") }
      if refusesGoogleURLOffList { set.append("refuses at Google's URLs off its list") }
      return set.isEmpty ? "preferred answers" : set.joined(separator: ", ")
    }

    /// Every other answer at once: the state echoed, scopes dropped or refused, a refusal wherever one passes.
    static func others(_ outsideToken: OutsideToken) -> Choices {
      Choices(
        echoesNonUTF8State: true, dropsUndecodableScope: true, outsideTokenScope: outsideToken, requiresScope: true,
        refusesRepeatedRedirect: true, refusesGoogleURLOffList: true)
    }

    /// The preferred answers, each other answer on its own, then all of them together.
    static let all: [Choices] = {
      var each: [Choices] = [Choices()]
      for change: (inout Choices) -> Void in [
        { $0.echoesNonUTF8State = true }, { $0.dropsUndecodableScope = true }, { $0.outsideTokenScope = .refuse },
        { $0.outsideTokenScope = .drop }, { $0.requiresScope = true }, { $0.refusesRepeatedRedirect = true },
        { $0.refusesGoogleURLOffList = true },
      ] {
        var choices = Choices()
        change(&choices)
        each.append(choices)
      }
      return each + [others(.refuse), others(.drop)]
    }()
  }

  var clientID: [UInt8]
  var allowed: [[UInt8]]
  var choices: Choices

  init(configuration: PartnerConfiguration, choices: Choices = Choices()) {
    clientID = Array(configuration.clientID.utf8)
    allowed = configuration.allowList.urls.map { Array($0.utf8) }
    self.choices = choices
  }

  /// Google's twelve App Flip URLs, as the page lists them.
  static let googleURLs: [[UInt8]] = ["oauth-redirect", "oauth-redirect-sandbox"].flatMap { host in
    ["Chromecast", "Chromecast.dev", "Chromecast.enterprise", "OPA", "OPA.dev", "OPA.enterprise"].map {
      Array("https://\(host).googleusercontent.com/a/com.google.\($0)".utf8)
    }
  }

  /// A parameter: its name decoded (`nil` when it does not decode), its value decoded (`nil`: broken escape).
  struct Parameter {
    var name: [UInt8]?
    var value: [UInt8]?
  }

  static func decode(_ bytes: ArraySlice<UInt8>) -> [UInt8]? {
    func hex(_ byte: UInt8) -> UInt8? {
      switch byte {
      case 0x30...0x39: byte - 0x30
      case 0x41...0x46: byte - 0x37
      case 0x61...0x66: byte - 0x57
      default: nil
      }
    }
    var out: [UInt8] = []
    var index = bytes.startIndex
    while index < bytes.endIndex {
      if bytes[index] == 0x25 {
        guard index + 2 < bytes.endIndex, let high = hex(bytes[index + 1]), let low = hex(bytes[index + 2]) else {
          return nil
        }
        out.append(high << 4 | low)
        index += 3
      } else {
        out.append(bytes[index])
        index += 1
      }
    }
    return out
  }

  static func parameters(_ link: String) -> [Parameter] {
    let bytes = Array(link.utf8)
    let end = bytes.firstIndex(of: 0x23) ?? bytes.endIndex
    guard let question = bytes[..<end].firstIndex(of: 0x3F) else { return [] }
    return bytes[(question + 1)..<end].split(separator: 0x26, omittingEmptySubsequences: true).map { piece in
      guard let equals = piece.firstIndex(of: 0x3D) else { return Parameter(name: decode(piece), value: []) }
      return Parameter(name: decode(piece[..<equals]), value: decode(piece[(equals + 1)...]))
    }
  }

  static func isUTF8(_ bytes: [UInt8]) -> Bool {
    var decoder = UTF8()
    var iterator = bytes.makeIterator()
    while true {
      switch decoder.decode(&iterator) {
      case .scalarValue: continue
      case .emptyInput: return true
      case .error: return false
      }
    }
  }

  static func encode(_ bytes: [UInt8]) -> String {
    let digits = Array("0123456789ABCDEF".utf8)
    var out: [UInt8] = []
    for byte in bytes {
      switch byte {
      case 0x41...0x5A, 0x61...0x7A, 0x30...0x39, 0x2D, 0x2E, 0x5F, 0x7E: out.append(byte)
      default: out += [0x25, digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]]
      }
    }
    return String(decoding: out, as: UTF8.self)
  }

  func handle(_ link: String, authorizer: Authorizer) async throws -> OpenedURL? {
    let parameters = Self.parameters(link)
    func values(_ name: String) -> [[UInt8]?] {
      parameters.filter { $0.name == Array(name.utf8) }.map(\.value)
    }
    func reply(to base: [UInt8], _ pairs: [(String, [UInt8])]) -> OpenedURL {
      let query = pairs.map { "\($0.0)=\(Self.encode($0.1))" }.joined(separator: "&")
      return OpenedURL(url: String(decoding: base, as: UTF8.self) + "?" + query, universalLinksOnly: true)
    }

    // The state, when the request carries exactly one that can be returned.
    let states = values("state")
    var state: [UInt8]?
    if states.count == 1, let value = states[0], !value.isEmpty,
      Self.isUTF8(value) || choices.echoesNonUTF8State
    {
      state = value
    }
    func refuse(at base: [UInt8]) -> OpenedURL {
      reply(to: base, [("error", Array("invalid_request".utf8))] + (state.map { [("state", $0)] } ?? []))
    }

    // redirect_uri first: exactly once, byte-equal to an allowed URL, or nothing is opened (AF-RU-4).
    let redirects = values("redirect_uri")
    guard let first = redirects.first, let redirect = first, !redirect.isEmpty else { return nil }
    if redirects.count > 1 {
      let repeated = redirects.allSatisfy { $0 == redirect }
      return choices.refusesRepeatedRedirect && repeated && allowed.contains(redirect) ? refuse(at: redirect) : nil
    }
    guard allowed.contains(redirect) else {
      return choices.refusesGoogleURLOffList && Self.googleURLs.contains(redirect) ? refuse(at: redirect) : nil
    }

    // Then the request: client_id byte for byte, one state, at most one scope (AF-V-2).
    let clientIDs = values("client_id")
    guard clientIDs.count == 1, clientIDs[0] == clientID, states.count == 1, let state else {
      return refuse(at: redirect)
    }
    let scopeValues = values("scope")
    guard scopeValues.count <= 1 else { return refuse(at: redirect) }
    var scopes: [String] = []
    if let scope = scopeValues.first, scope != [] {
      if let scope, Self.isUTF8(scope) {
        scopes = scope.split(separator: 0x20).map { String(decoding: $0, as: UTF8.self) }
        let token = scopes.allSatisfy {
          $0.utf8.allSatisfy { $0 == 0x21 || (0x23...0x5B).contains($0) || (0x5D...0x7E).contains($0) }
        }
        if !token {
          switch choices.outsideTokenScope {
          case .forward: break
          case .refuse: return refuse(at: redirect)
          case .drop: scopes = []
          }
        }
      } else if choices.dropsUndecodableScope {
        scopes = []
      } else {
        return refuse(at: redirect)
      }
    } else if choices.requiresScope {
      return refuse(at: redirect)
    }

    let outcome = await authorizer.requestCode(
      clientID: String(decoding: clientID, as: UTF8.self), redirectURI: String(decoding: redirect, as: UTF8.self),
      scopes: scopes)
    let error: String
    switch outcome {
    case .granted(let code): return reply(to: redirect, [("code", Array(code.utf8)), ("state", state)])
    case .signInFailed, .offline, .timedOut: error = "cancelled"
    case .accountDisabled: error = "unrecoverable"
    case .consentDenied: error = "access_denied"
    }
    return reply(to: redirect, [("error", Array(error.utf8)), ("state", state)])
  }
}
