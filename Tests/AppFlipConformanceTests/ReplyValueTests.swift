import AppFlip
import Testing

@testable import AppFlipConformance

@Suite("How the judge reads a reply parameter's value")
struct ReplyValueTests {
  @Test("A value reads exactly what its RFC 3986 or its form decoding reads, and nothing else")
  func readsEitherDecoding() {
    let values = ["", "c-1", "a+b", "a%2Bb", "a b", "%zz", "%C3%A9", "é", "x%", "+", "%20", "%22q%5C", "a%7F", "%2"]
    for written in values {
      let parameter = URLQuery("https://r.example/cb?v=" + written).parameters[0]
      let rfc3986 = PercentEncoding.decode(written)
      let form = PercentEncoding.decode(written, plusAsSpace: true)
      for candidate in values + ["a b", "\u{E9}", "x%"] {
        let bytes = Array(candidate.utf8)
        let expected = rfc3986 == bytes || form == bytes
        #expect(parameter.reads(bytes) == expected, "\(written) reads \(candidate)")
        #expect(parameter.reads(candidate) == expected, "\(written) reads \(candidate)")
      }
      #expect(parameter.isEmptyOrBroken == (written.isEmpty || rfc3986 == nil), "\(written)")
      let nqs = rfc3986?.allSatisfy { (0x20...0x7E).contains($0) && $0 != 0x22 && $0 != 0x5C } ?? false
      #expect(parameter.isNQSChar == nqs, "\(written)")
      #expect(parameter.isAmbiguous == (rfc3986 != form), "\(written)")
    }
  }
}
