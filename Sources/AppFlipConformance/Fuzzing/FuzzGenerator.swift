import AppFlip

/// A seeded SplitMix64 generator: the same seed gives the same links on every platform.
package struct SeededRandom: RandomNumberGenerator, Sendable {
  private var state: UInt64

  package init(seed: UInt64) {
    state = seed
  }

  package mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}

/// Builds links around a partner's own configuration: valid ones from its client id, universal link and allow-list,
/// then mutated at every level (parameters, values, encodings, outcomes, sequences).
package struct FuzzGenerator: Sendable {
  /// The configuration links are built from.
  package let configuration: PartnerConfiguration
  /// Google's App Flip URLs the allow-list leaves out, worked out once rather than for every link.
  private let offList: [String]
  private let seed: UInt64
  private var random: SeededRandom
  private var codes = 0

  package init(configuration: PartnerConfiguration, seed: UInt64) {
    self.configuration = configuration
    offList = RedirectAllowList.google.urls.filter { !configuration.allowList.contains($0) }
    self.seed = seed
    random = SeededRandom(seed: seed)
  }

  /// Case `number` of the seed's run, made on its own: any worker can make any case, and a case does not depend on
  /// the ones before it. Its codes are its own too (from `number` × 1 000 on), as a run's codes never repeat.
  package func fuzzCase(_ number: Int) -> FuzzCase {
    var generator = self
    var mixer = SeededRandom(seed: seed &+ UInt64(truncatingIfNeeded: number) &* 0x9E37_79B9_7F4A_7C15)
    generator.random = SeededRandom(seed: mixer.next())
    generator.codes = number &* 1_000
    return generator.next()
  }

  /// The next case.
  package mutating func next() -> FuzzCase {
    switch roll(100) {
    case 0..<6:
      let count = 2 + roll(2)
      return FuzzCase(links: (0..<count).map { _ in validLink() }, interleaved: true)
    case 6..<12:
      let link = mutated(validLink())
      var replay = link
      replay.outcome = .granted(code: nextCode())
      return FuzzCase(links: [link, replay], interleaved: false)
    case 12..<18:
      return FuzzCase(links: [mutated(validLink()), validLink()], interleaved: false)
    default:
      return FuzzCase(links: [mutated(validLink())], interleaved: false)
    }
  }

  // MARK: - Valid links

  mutating func validLink() -> FuzzCase.Link {
    var redirect = configuration.allowList.urls[roll(configuration.allowList.urls.count)]
    // Now and then one of Google's twelve URLs the allow-list leaves out: nothing or invalid_request there (AF-RU-5).
    if !offList.isEmpty && chance(5) { redirect = pick(offList) }
    var pieces = [
      "client_id=" + PercentEncoding.encode(configuration.clientID),
      "scope="
        + PercentEncoding.encode(
          pick([configuration.scopes.joined(separator: " "), "devices profile", "email", "", "a.b/c"])),
      "state=" + PercentEncoding.encode(state()),
      "redirect_uri=" + (chance(20) ? redirect : PercentEncoding.encode(redirect)),
    ]
    if chance(15) { pieces.removeAll { $0.hasPrefix("scope=") } }
    if chance(30) { pieces.shuffle(using: &random) }
    return FuzzCase.Link(pieces: pieces, fragment: nil, outcome: outcome())
  }

  /// Characters a generated state is made of: unreserved, reserved, space, Unicode look-alikes and marks, braces.
  static let stateAlphabet: [String] = [
    "a", "Z", "0", "-", "_", ".", "~", "+", " ", "&", "=", "#", "%", "?", "/", ":", "@", "!", "*", "'", "(",
    ";", ",", "\"", "<", "é", "e\u{301}", "\u{212A}", "K", "\u{FEFF}", "😀", "\u{200B}", "{", "}", "|",
  ]

  mutating func state() -> String {
    let length = chance(5) ? 200 + roll(2_000) : 1 + roll(24)
    var state = ""
    for _ in 0..<length { state += chance(50) ? "s" : pick(Self.stateAlphabet) }
    return state
  }

  mutating func outcome() -> AuthorizationOutcome {
    switch roll(10) {
    case 0: .signInFailed
    case 1: .offline
    case 2: .timedOut
    case 3: .accountDisabled
    case 4: .consentDenied
    default: .granted(code: nextCode())
    }
  }

  mutating func nextCode() -> String {
    codes += 1
    return pick(["c", "c+", "c/=", "c d", "c&x", "c%"]) + String(codes)
  }

  // MARK: - Mutations

  mutating func mutated(_ link: FuzzCase.Link) -> FuzzCase.Link {
    var link = link
    for _ in 0..<(1 + roll(3)) { mutate(&link) }
    return link
  }

  mutating func mutate(_ link: inout FuzzCase.Link) {
    guard !link.pieces.isEmpty else {
      link.pieces = validLink().pieces
      return
    }
    let index = roll(link.pieces.count)
    let piece = link.pieces[index]
    let equals = piece.utf8.firstIndex(of: UInt8(ascii: "="))
    let name = equals.map { String(piece[..<$0]) } ?? piece
    let value = equals.map { String(piece[piece.utf8.index(after: $0)...]) } ?? ""
    switch roll(14) {
    case 0: link.pieces.remove(at: index)
    case 1:
      link.pieces.insert(
        chance(50) ? piece : name + "=" + PercentEncoding.encode(state()), at: roll(link.pieces.count + 1))
    case 2: link.pieces[index] = name + "="
    case 3: link.pieces[index] = name
    case 4:
      link.pieces.insert(
        pick(Self.unknownNames) + "=" + PercentEncoding.encode(state()), at: roll(link.pieces.count + 1))
    case 5:
      if index + 1 < link.pieces.count {
        link.pieces[index] = piece + pick([";", "&", "&&", "%26"]) + link.pieces.remove(at: index + 1)
      }
    case 6: link.fragment = chance(50) ? piece : pick(["", "x", "&state=evil", "code=evil"])
    case 7: link.pieces[index] = pick(Self.nameSpellings[name] ?? [name]) + "=" + value
    case 8: link.pieces[index] = name + "=" + nearMiss(name: name, value: value)
    case 9: link.pieces[index] = name + "=" + reencoded(value)
    case 10: link.pieces[index] = name + "=" + pick(Self.prefixes) + value + pick(Self.suffixes)
    case 11: link.pieces[index] = name + "=" + value + pick(Self.suffixes)
    case 12: link.pieces[index] = pick(["\u{301}", "\u{200B}"]) + piece
    default: link.outcome = outcome()
    }
  }

  static let valueTransforms = PlaceholderTransform.allCases.filter { !$0.isEncoding }
  static let unknownNames = [
    "x", "Client_ID", "redirect_url", "response_type", "code", "error", "client_id ", "state[]", "%FFstate", "st%G1ate",
  ]
  static let nameSpellings: [String: [String]] = [
    "client_id": ["client%5Fid", "client%255Fid", "Client_id", "client_ID", "client-id", "%63lient_id"],
    "state": ["st%61te", "State", "state%00", "stat"],
    "redirect_uri": ["redirect%5Furi", "Redirect_uri", "redirect_url", "redirect%255Furi"],
    "scope": ["sc%6Fpe", "Scope", "scopes"],
  ]
  static let prefixes = ["", "", "%20", "+", "%09", "%0A", "%00", "%EF%BB%BF", "%C2%A0", "%FF", "%2B"]
  static let suffixes = [
    "", "%20", "+", "%0A", "%0D%0A", "%00", "%", "%G1", "%4", "%FF", "%C3%28", "%C0%AF", "%ED%A0%80", "%CC%81", "%2B",
    "/", ".", "%2F", "%23x", "%3Fx=1", "%26code=evil", "#", "?",
  ]

  /// A configured value made into a near miss of itself, percent-encoded.
  mutating func nearMiss(name: String, value: String) -> String {
    guard let decoded = PercentEncoding.decode(value).flatMap(Bytes.utf8String), !decoded.isEmpty else {
      return value + "%FF"
    }
    if name == "redirect_uri" && chance(60) {
      let parts = RedirectParts(decoded)
      let scheme = String(parts.scheme)
      let host = String(parts.host)
      let path = String(parts.path)
      let variant = pick([
        "\(scheme)://\(host):443\(path)", "\(scheme)://\(host).\(path)", "\(scheme)://evil.example@\(host)\(path)",
        "\(scheme)://\(host)@evil.example\(path)", "\(scheme)://\(host)\(path)/", "\(scheme)://\(host)/x/..\(path)",
        "http://\(host)\(path)", "\(scheme)://\(host).evil.example\(path)", "\(scheme)://\(host)\(path)?x=1",
        "\(scheme)://\(host)\(path)#x", "\(scheme):\\\\\(host)\(path)", "//\(host)\(path)",
        "\(scheme)://\(host)//\(path)",
        "\(scheme)://\(host)\(path)&code=x", "https://evil.example/?u=\(decoded)", "\(scheme)://\(host)\(path)\u{301}",
      ])
      return PercentEncoding.encode(variant)
    }
    var transformed = decoded
    for _ in 0..<(1 + roll(2)) {
      let transform = pick(Self.valueTransforms)
      if let changed = transform.apply(transformed, allowList: configuration.allowList.urls) { transformed = changed }
    }
    return PercentEncoding.encode(transformed)
  }

  /// The same decoded value written another way: raw, lower-case hex, every byte escaped, or encoded twice.
  mutating func reencoded(_ value: String) -> String {
    guard let bytes = PercentEncoding.decode(value) else { return value }
    switch roll(5) {
    case 0: return PercentEncoding.encode(PercentEncoding.encode(bytes: bytes))
    case 1: return bytes.map { "%" + RulesOracle.hex([$0]) }.joined()
    case 2: return bytes.map { "%" + RulesOracle.hex([$0]).uppercased() }.joined()
    case 3:
      // Raw, except the bytes that would change the query's shape or a placeholder.
      return String(
        decoding: bytes.flatMap { byte -> [UInt8] in
          "&#%{".utf8.contains(byte) || byte < 0x21 ? Array(PercentEncoding.encode(bytes: [byte]).utf8) : [byte]
        }, as: UTF8.self)
    default:
      return String(
        decoding: bytes.flatMap {
          $0 == UInt8(ascii: " ") ? [UInt8(ascii: "+")] : Array(PercentEncoding.encode(bytes: [$0]).utf8)
        },
        as: UTF8.self)
    }
  }

  // MARK: - Randomness

  mutating func roll(_ upper: Int) -> Int { upper <= 1 ? 0 : Int.random(in: 0..<upper, using: &random) }
  mutating func chance(_ percent: Int) -> Bool { roll(100) < percent }
  mutating func pick<T>(_ choices: [T]) -> T { choices[roll(choices.count)] }
}
