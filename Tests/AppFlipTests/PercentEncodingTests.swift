import AppFlip
import Testing

@Suite("Percent-encoding")
struct PercentEncodingTests {
  @Test("Leaves only RFC 3986 unreserved characters literal")
  func encodesAllButUnreserved() {
    #expect(PercentEncoding.encode("aZ09-._~") == "aZ09-._~")
    #expect(PercentEncoding.encode("a+b c&d=e%f#g/?") == "a%2Bb%20c%26d%3De%25f%23g%2F%3F")
    #expect(PercentEncoding.encode("é") == "%C3%A9")
  }

  @Test("Decodes exactly once")
  func decodesOnce() {
    #expect(PercentEncoding.decode("%2541") == Array("%41".utf8))
    #expect(PercentEncoding.decode("%c3%a9") == [0xC3, 0xA9])
  }

  @Test("Keeps + literal unless asked to read it as a space")
  func plusHandling() {
    #expect(PercentEncoding.decode("a+b") == Array("a+b".utf8))
    #expect(PercentEncoding.decode("a+b", plusAsSpace: true) == Array("a b".utf8))
    #expect(PercentEncoding.decode("a%2Bb", plusAsSpace: true) == Array("a+b".utf8))
  }

  @Test("Refuses broken escapes", arguments: ["%", "%4", "%G1", "%%", "a%2", "%4g"])
  func refusesBrokenEscapes(_ input: String) {
    #expect(PercentEncoding.decode(input) == nil)
  }

  @Test("Round-trips every byte value")
  func roundTripsAllBytes() {
    let bytes = (0...255).map(UInt8.init)
    let encoded = PercentEncoding.encode(bytes: bytes)
    #expect(PercentEncoding.decode(encoded) == bytes)
    #expect(PercentEncoding.decode(encoded, plusAsSpace: true) == bytes)
  }
}

@Suite("Byte-exact strings")
struct BytesTests {
  @Test("Tells Unicode-equivalent strings apart, unlike ==")
  func unicodeEquivalentDiffer() {
    let kelvin = "\u{212A}"
    let nfc = "\u{E9}"
    let nfd = "e\u{301}"
    #expect(nfc == nfd)
    #expect(!Bytes.equal(nfc, nfd))
    #expect(!Bytes.equal(kelvin, "K"))
    #expect(Bytes.equal("abc", "abc"))
  }

  @Test("Reads only valid UTF-8")
  func validatesUTF8() {
    #expect(Bytes.utf8String([0x61, 0xC3, 0xA9]) == "aé")
    #expect(Bytes.utf8String([0xFF]) == nil)
    #expect(Bytes.utf8String([0xED, 0xA0, 0x80]) == nil)
    #expect(Bytes.utf8String([0xC0, 0xAF]) == nil)
    #expect(Bytes.utf8String([0xEF, 0xBB, 0xBF, 0x00]).map { Array($0.utf8) } == [0xEF, 0xBB, 0xBF, 0x00])
  }

  @Test("Reads bytes exactly when decoding them replaces nothing: every 1 to 3 boundary bytes, some 4-byte ones")
  func validatesAsDecodingDoes() {
    let boundaries: [UInt8] = [
      0x00, 0x41, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xC1, 0xC2, 0xDF, 0xE0, 0xED, 0xEF, 0xF0, 0xF4, 0xF5,
      0xFF,
    ]
    var strings: [[UInt8]] = [[]]
    var longest: [[UInt8]] = [[]]
    for _ in 1...3 {
      longest = longest.flatMap { prefix in boundaries.map { prefix + [$0] } }
      strings += longest
    }
    // Four-byte sequences: U+10000, above U+10FFFF, an overlong U+0000.
    strings += [[0xF0, 0x90, 0x80, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xF0, 0x80, 0x80, 0x80]]
    for bytes in strings {
      let replaced = Array(String(decoding: bytes, as: UTF8.self).utf8) != bytes
      #expect(Bytes.utf8String(bytes).map { Array($0.utf8) } == (replaced ? nil : bytes), "\(bytes)")
    }
  }
}
