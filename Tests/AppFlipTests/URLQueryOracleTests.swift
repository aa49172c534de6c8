import AppFlip
import Testing

/// `URLQuery` against the plainest splitter that could be written, on thousands of random and adversarial URLs: the
/// splitting rules (first `#`, first `?` before it, `&` with empty pieces dropped, first `=`, each escape decoded once,
/// `+` kept or read as a space, broken escapes) must not move when the splitter is made faster.
@Suite("URL query splitting, against a plain splitter")
struct URLQueryOracleTests {
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

  /// Decodes `%XX` once, byte by byte; `nil` for a broken escape.
  static func plainDecode(_ text: Substring, plusAsSpace: Bool) -> [UInt8]? {
    let bytes = Array(text.utf8)
    var out: [UInt8] = []
    var index = 0
    while index < bytes.count {
      if bytes[index] == UInt8(ascii: "%") {
        let digits = bytes[min(index + 1, bytes.count)..<min(index + 3, bytes.count)]
        guard digits.count == 2, digits.allSatisfy({ "0123456789abcdefABCDEF".utf8.contains($0) }) else { return nil }
        out.append(UInt8(String(decoding: digits, as: UTF8.self), radix: 16)!)
        index += 3
      } else {
        out.append(plusAsSpace && bytes[index] == UInt8(ascii: "+") ? UInt8(ascii: " ") : bytes[index])
        index += 1
      }
    }
    return out
  }

  /// The bytes as text when they are valid UTF-8.
  static func utf8(_ bytes: [UInt8]) -> String? {
    let text = String(decoding: bytes, as: UTF8.self)
    return text.utf8.elementsEqual(bytes) ? text : nil
  }

  /// The plain split, in the same terms as `described(_:)`: base, fragment, then each parameter's pieces and decodings.
  static func plain(_ url: String) -> String {
    let bytes = Array(url.utf8)
    func text(_ range: Range<Int>) -> Substring { Substring(String(decoding: bytes[range], as: UTF8.self)) }
    let end = bytes.firstIndex(of: UInt8(ascii: "#")) ?? bytes.count
    let fragment = end < bytes.count ? String(text(end + 1..<bytes.count)) : "nil"
    guard let question = bytes[..<end].firstIndex(of: UInt8(ascii: "?")) else { return "\(text(0..<end))#\(fragment)#" }
    var parameters = ""
    for piece in bytes[question + 1..<end].split(separator: UInt8(ascii: "&")) {
      let equals = piece.firstIndex(of: UInt8(ascii: "=")) ?? piece.endIndex
      let rawName = text(piece.startIndex..<equals)
      let rawValue = text(min(equals + 1, piece.endIndex)..<piece.endIndex)
      let name = plainDecode(rawName, plusAsSpace: false).flatMap(utf8)
      let value = plainDecode(rawValue, plusAsSpace: false)
      parameters +=
        "[\(text(piece.indices))|\(rawName)|\(rawValue)|\(name ?? "nil")|\(value.map { "\($0)" } ?? "nil")|"
        + "\(plainDecode(rawValue, plusAsSpace: true).map { "\($0)" } ?? "nil")|"
        + "\(value.flatMap(utf8) ?? "nil")]"
    }
    return "\(text(0..<question))#\(fragment)#\(parameters)"
  }

  /// What `URLQuery` reads.
  static func described(_ url: String) -> String {
    let query = URLQuery(url)
    let parameters = query.parameters.map { parameter in
      let form = PercentEncoding.decode(parameter.rawValue, plusAsSpace: true)
      return "[\(parameter.raw)|\(parameter.rawName)|\(parameter.rawValue)|\(parameter.name ?? "nil")|"
        + "\(parameter.value.map { "\($0)" } ?? "nil")|\(form.map { "\($0)" } ?? "nil")|\(parameter.stringValue ?? "nil")]"
    }
    return "\(query.base)#\(query.fragment.map(String.init) ?? "nil")#\(parameters.joined())"
  }

  @Test("Splits random and adversarial URLs exactly as a plain byte-by-byte splitter does")
  func matchesPlainSplitter() {
    let pieces = [
      "a", "Z", "0", "%", "%2", "%2B", "%2b", "%zz", "%+1", "%-1", "%C3%A9", "%C3", "%FF", "%00", "+", "=", "==", "&",
      "&&", "?", "??", "#", "##", ";", "é", "e\u{301}", "&\u{301}", "=\u{301}", "😀", " ", "\u{0}", "\r\n", "code",
      "state", "https://r.example/cb", String(repeating: "x", count: 300), String(repeating: "%41", count: 40),
    ]
    var random = SplitMix(state: 13)
    var urls = ["", "?", "#", "?#", "#?", "&", "=", "?=", "?&", "https://r.example/cb?code=c1&state=s1", "x?=&=#?&"]
    for _ in 0..<6_000 {
      let count = Int.random(in: 0...14, using: &random)
      urls.append((0..<count).map { _ in pieces.randomElement(using: &random)! }.joined())
    }
    var mismatches: [String] = []
    for url in urls where Self.described(url) != Self.plain(url) { mismatches.append(url) }
    #expect(
      mismatches.isEmpty,
      "\(mismatches.prefix(5).map { "\($0.debugDescription): \(Self.described($0)) vs \(Self.plain($0))" })")
  }
}
