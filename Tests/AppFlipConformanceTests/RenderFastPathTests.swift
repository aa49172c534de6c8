import AppFlip
import Testing

@testable import AppFlipConformance

@Suite("Byte-level fast paths of rendering and judging")
struct RenderFastPathTests {
  @Test("Percent-encodes into a buffer exactly as PercentEncoding.encode does, for every byte and mixed text")
  func encodesLikePercentEncoding() {
    let everyScalar = String(String.UnicodeScalarView((0..<0x250).compactMap(Unicode.Scalar.init)))
    for text in ["", "abc-._~XYZ09", " +%&=?#/:é😀\u{0}\u{7F}", everyScalar] {
      var out: [UInt8] = Array("prefix".utf8)
      LinkBytes.appendEncoded(text, to: &out)
      #expect(String(decoding: out, as: UTF8.self) == "prefix" + PercentEncoding.encode(text))
    }
  }

  @Test("A worker's memo renders every bundled vector, under two configurations, exactly as rendering afresh does")
  func memoRendersTheSame() {
    let catalog = VectorLoader.loadBundled()
    let adapter = InProcessAdapter(name: "ref") { ReferenceHandlerAdapter(configuration: $0) }
    var homeOnly = PartnerConfiguration.default
    homeOnly.allowList = RedirectAllowList(["https://oauth-redirect.googleusercontent.com/a/com.google.Chromecast"])
    for configuration in [PartnerConfiguration.default, homeOnly] {
      let memo = RenderMemo()
      var rendered = 0
      for _ in 0..<2 {
        for loaded in catalog.vectors {
          let fresh = VectorPlan.make(loaded, configuration: configuration, adapter: adapter)
          let memoized = VectorPlan.make(
            loaded, configuration: configuration, adapter: adapter, platform: nil, memo: memo)
          switch (fresh, memoized) {
          case (.success(let a), .success(let b)):
            #expect(a.steps == b.steps, "\(loaded.vector.id)")
            rendered += 1
          case (.failure(let a), .failure(let b)):
            #expect(a == b, "\(loaded.vector.id)")
          default:
            Issue.record("\(loaded.vector.id): rendered with the memo \(memoized), without \(fresh)")
          }
        }
      }
      #expect(rendered > catalog.vectors.count)
    }
  }

  @Test("The memo tells canonically equivalent templates apart: NFC and NFD text render to their own bytes")
  func memoComparesBytes() throws {
    let memo = RenderMemo()
    let substitution = Substitution(configuration: .default, encoded: false, memo: memo)
    let composed = try substitution.apply("{client_id}\u{E9}").get()
    let decomposed = try substitution.apply("{client_id}e\u{301}").get()
    #expect(Array(composed.utf8.suffix(2)) == [0xC3, 0xA9])
    #expect(Array(decomposed.utf8.suffix(3)) == [0x65, 0xCC, 0x81])
  }

  @Test("The reply check's byte table agrees with the character rule for every byte")
  func legalByteTable() {
    let disagreeing = (0...255).filter {
      DeliveryPlatform.isLegalByte(UInt8($0)) != DeliveryPlatform.isLegal(UInt16($0))
    }
    #expect(disagreeing.isEmpty, "\(disagreeing)")
  }
}
