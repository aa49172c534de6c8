import AppFlip
import Testing

@testable import AppFlipConformance

@Suite("The judge's reply parser")
struct ReplyQueryTests {
  /// Deterministic pseudo-random numbers (SplitMix64), so a failure reproduces.
  struct SplitMix: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
      state &+= 0x9E37_79B9_7F4A_7C15
      var z = state
      z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
      z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
      return z ^ (z >> 31)
    }
  }

  /// What `URLQuery` reads, in the parser's terms.
  static func expected(_ url: String) -> String {
    let query = URLQuery(url)
    let parameters = query.parameters.map { parameter in
      let form = PercentEncoding.decode(parameter.rawValue, plusAsSpace: true)
      return "[\(parameter.raw)|\(parameter.rawName)|\(parameter.rawValue)|\(parameter.name ?? "nil")|"
        + "\(parameter.value.map { "\($0)" } ?? "nil")|\(form.map { "\($0)" } ?? "nil")]"
    }
    return "\(query.base)#\(query.fragment.map(String.init) ?? "nil")#\(parameters.joined())"
  }

  /// What `ReplyQuery` reads.
  static func actual(_ url: String) -> String {
    let query = ReplyQuery(url)
    let parameters = query.parameters.map { parameter in
      "[\(query.text(parameter.raw))|\(query.text(parameter.rawName))|\(query.text(parameter.rawValue))|"
        + "\(parameter.name ?? "nil")|\(query.value(parameter).map { "\($0)" } ?? "nil")|"
        + "\(query.form(parameter).map { "\($0)" } ?? "nil")]"
    }
    return "\(query.text(query.base))#\(query.fragment.map { String(query.text($0)) } ?? "nil")#\(parameters.joined())"
  }

  @Test("Splits every reply URL exactly as URLQuery does: base, fragment, each parameter's pieces and decodings")
  func matchesURLQuery() {
    let pieces = [
      "a", "Z", "0", "%", "%2", "%2B", "%2b", "%zz", "%C3%A9", "%FF", "+", "=", "&", "&&", "?", "#", ";", "é", "😀",
      " ", "code", "state", "https://r.example/cb", String(repeating: "x", count: 300),
    ]
    var random = SplitMix(state: 13)
    var urls = ["", "?", "#", "?#", "https://r.example/cb?code=c1&state=s1", "x?=&=#?&"]
    for _ in 0..<3_000 {
      let count = Int.random(in: 0...12, using: &random)
      urls.append((0..<count).map { _ in pieces.randomElement(using: &random)! }.joined())
    }
    var mismatches: [String] = []
    for url in urls where Self.expected(url) != Self.actual(url) { mismatches.append(url) }
    #expect(mismatches.isEmpty, "\(mismatches.prefix(5))")
  }

  @Test("A value is compared and checked as it decodes, and reads exactly what its decoded bytes read")
  func comparesInPlace() {
    let values = ["", "c-1", "a+b", "a%2Bb", "a b", "%zz", "%C3%A9", "é", "x%", "+", "%20", "%22q%5C", "a%7F", "%2"]
    for written in values {
      let query = ReplyQuery("https://r.example/cb?v=" + written)
      let parameter = query.parameters[0]
      #expect(parameter.hasPercent == written.contains("%") && parameter.hasPlus == written.contains("+"), "\(written)")
      let value = query.replyValue(parameter)
      for candidate in values + ["a b", "\u{E9}", "x%"] {
        let bytes = Array(candidate.utf8)
        let expected = query.value(parameter) == bytes || query.form(parameter) == bytes
        #expect(value.reads(bytes) == expected, "\(written) reads \(candidate)")
        #expect(value.reads(candidate) == expected, "\(written) reads \(candidate)")
      }
      #expect(value.rfc3986 == query.value(parameter))
      #expect(value.decodes == (query.value(parameter) != nil), "\(written)")
      let nqs = query.value(parameter)?.allSatisfy { (0x20...0x7E).contains($0) && $0 != 0x22 && $0 != 0x5C } ?? false
      #expect(value.isNQSChar == nqs, "\(written)")
      #expect(query.isAmbiguous(parameter) == (query.value(parameter) != query.form(parameter)), "\(written)")
    }
  }
}
