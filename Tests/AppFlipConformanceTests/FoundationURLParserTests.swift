import AppFlip
import Foundation
import Testing

@testable import AppFlipConformance

@Suite("The link as iOS 17 delivers it: FoundationURLParser against Foundation's URL(string:)")
struct FoundationURLParserTests {
  /// What this toolchain's `URL(string:)` keeps of `string` (swift-foundation: the parser of iOS 17 and macOS 14).
  static func foundation(_ string: String) -> String? {
    URL(string: string)?.absoluteString
  }

  static func model(_ string: String) -> String? {
    try? FoundationURLParser.parse(string).get()
  }

  /// Every link the bundled app vectors send under the configurations the kill matrix uses.
  static var bundledLinks: [String] {
    let catalog = VectorLoader.loadBundled(.app)
    var links: [String] = []
    for configuration in [PartnerConfiguration.default] + PartnerURLs.configurations {
      for loaded in catalog.vectors {
        let vector = loaded.vector
        let applied = vector.configuration?.applied(to: configuration) ?? configuration
        if case .success(let steps) = RenderedStep.render(vector, with: applied) { links += steps.map(\.link) }
      }
    }
    return links
  }

  @Test("Makes of every bundled link what Foundation's URL(string:) makes of it")
  func bundled() {
    let links = Self.bundledLinks
    #expect(links.count > 1000)
    var differences: [String] = []
    for link in links where Self.model(link) != Self.foundation(link) {
      differences.append(
        "\(link)\n  model:      \(Self.model(link) ?? "nil")\n  Foundation: \(Self.foundation(link) ?? "nil")")
    }
    #expect(differences.isEmpty, "\(differences.prefix(5).joined(separator: "\n"))")
    // Some of them are encoded again, so the comparison is not only of unchanged strings.
    #expect(links.contains { link in Self.model(link).map { !Bytes.equal($0, link) } ?? false })
  }

  /// Pieces that change how a component parses: delimiters, escapes broken and whole, characters RFC 3986 refuses.
  static let pieces = [
    "a", "Z", "0", "-", ".", "~", "%", "%4", "%41", "%2b", "%G1", "%%", "%25", " ", "\u{E9}", "\u{301}", "#", "?", "&",
    "=", "+", "[", "]", "@", ":", "/", "\"", "<", "|", "^", "`", "{", "\\", "\t", "'", "!", "$", ";", ",", "*",
  ]

  @Test("Makes of generated links what Foundation's URL(string:) makes of them, nil included")
  func generated() {
    var random = SplitMix(seed: 21)
    var differences: [String] = []
    var compared = 0
    func piece(_ count: Int) -> String {
      (0..<count).map { _ in Self.pieces[random.next(Self.pieces.count)] }.joined()
    }
    for round in 0..<4000 {
      let authority = [
        "h.example", "u\(piece(1))@h.example", "u:p\(piece(1))@h.example:8\(piece(round % 7 == 0 ? 1 : 0))",
        "[::1]", "[::1%25e\(piece(1))]:8", "[::1]\(piece(1))", "h\(piece(1)).example",
      ]
      let scheme = ["https", "https", "https", "a+b.c", "1x", "x\(piece(1))"][random.next(6)]
      let link =
        "\(scheme)://\(authority[random.next(authority.count)])/p\(piece(random.next(3)))?\(piece(random.next(8)))"
        + (random.next(2) == 0 ? "" : "#\(piece(random.next(4)))")
      // Hosts IDNA would encode are not modelled (refused here, encoded or refused by Foundation).
      let reason = FoundationURLParser.parse(link).failureReason
      if reason?.contains("IDNA") == true { continue }
      // Without a scheme Foundation makes a relative URL, which iOS never hands to an app as a universal link.
      if reason == "it has no valid scheme", URL(string: link)?.scheme == nil { continue }
      compared += 1
      if Self.model(link) != Self.foundation(link) {
        differences.append(
          "\(link)\n  model:      \(Self.model(link) ?? "nil")\n  Foundation: \(Self.foundation(link) ?? "nil")")
      }
    }
    #expect(compared > 2000)
    #expect(differences.isEmpty, "\(differences.count) differ, e.g.\n\(differences.prefix(5).joined(separator: "\n"))")
  }

  @Test("A raw character the query must encode has every escape of the query encoded again")
  func doubleEncoding() {
    let link =
      "https://partner.example/appflip?client_id=c&state=s%G1&redirect_uri=https%3A%2F%2Foauth-redirect.googleusercontent.com%2Fa%2Fcom.google.OPA"
    let delivered = Self.model(link)
    #expect(delivered == Self.foundation(link))
    #expect(
      delivered?.hasSuffix(
        "state=s%25G1&redirect_uri=https%253A%252F%252Foauth-redirect.googleusercontent.com%252Fa%252Fcom.google.OPA")
        == true)
    #expect(FoundationURLParser.invalidQueryCharacter(link) == #"a broken escape "%G1""#)
    #expect(FoundationURLParser.invalidQueryCharacter("https://a.example/?s=x\u{301}") == #"a raw "\u{301}" (U+0301)"#)
  }
}

extension Result where Failure == FoundationURLParser.Refusal {
  var failureReason: String? {
    if case .failure(let refusal) = self { refusal.reason } else { nil }
  }
}

/// A deterministic generator (SplitMix64), so a failing link comes back on every run.
struct SplitMix {
  var state: UInt64

  init(seed: UInt64) { state = seed }

  /// A number in `0..<bound`.
  mutating func next(_ bound: Int) -> Int {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return Int((z ^ (z >> 31)) % UInt64(bound))
  }
}
