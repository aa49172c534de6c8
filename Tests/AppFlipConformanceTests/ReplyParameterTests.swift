import AppFlip
import Testing

@testable import AppFlipConformance

@Suite("The judge's reading of a reply parameter")
struct ReplyParameterTests {
  @Test("A value is compared and checked as it decodes, and reads exactly what its decoded bytes read")
  func comparesInPlace() {
    let values = ["", "c-1", "a+b", "a%2Bb", "a b", "%zz", "%C3%A9", "é", "x%", "+", "%20", "%22q%5C", "a%7F", "%2"]
    for written in values {
      let parameter = URLQuery("https://r.example/cb?v=" + written).parameters[0]
      for candidate in values + ["a b", "\u{E9}", "x%"] {
        let bytes = Array(candidate.utf8)
        let expected = parameter.value == bytes || parameter.formValue == bytes
        #expect(parameter.reads(bytes) == expected, "\(written) reads \(candidate)")
        #expect(parameter.reads(candidate) == expected, "\(written) reads \(candidate)")
      }
      #expect(parameter.isEmptyOrBroken == (written.isEmpty || parameter.value == nil), "\(written)")
      let nqs = parameter.value?.allSatisfy { (0x20...0x7E).contains($0) && $0 != 0x22 && $0 != 0x5C } ?? false
      #expect(parameter.isNQSChar == nqs, "\(written)")
      #expect(parameter.isAmbiguous == (parameter.value != parameter.formValue), "\(written)")
    }
  }
}
