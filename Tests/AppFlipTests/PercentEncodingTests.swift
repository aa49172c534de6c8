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
  }
}
