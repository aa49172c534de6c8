import AppFlip
import Testing

@testable import AppFlipConformance

@Suite("Byte-level fast paths of rendering and judging")
struct RenderFastPathTests {
  @Test("Percent-encodes into a buffer exactly as PercentEncoding.encode does, for every byte and mixed text")
  func encodesLikePercentEncoding() {
    let everyScalar = String(String.UnicodeScalarView((0..<0x250).compactMap(Unicode.Scalar.init)))
    let long = String(repeating: "a", count: 70_000) + "/é" + String(repeating: "Z9", count: 40)
    for text in ["", "abc-._~XYZ09", " +%&=?#/:é😀\u{0}\u{7F}", everyScalar, long] {
      var out: [UInt8] = Array("prefix".utf8)
      LinkBytes.appendEncoded(text, to: &out)
      #expect(String(decoding: out, as: UTF8.self) == "prefix" + PercentEncoding.encode(text))
    }
  }

  @Test("The pre-iOS 17 check's byte table holds no byte past ASCII, which its loop passes over unread")
  func legalBytesAreASCII() {
    #expect((0x80...0xFF).allSatisfy { !DeliveryPlatform.legalBytes.contains(UInt8($0)) })
  }

  @Test("A byte set holds exactly the bytes it was made from, in every quarter of the byte range")
  func byteSet() {
    let predicates: [(UInt8) -> Bool] = [
      PercentEncoding.isUnreserved, { $0 % 3 == 0 }, { $0 >= 128 }, { $0 == 0 || $0 == 63 || $0 == 64 || $0 == 255 },
      { _ in false },
    ]
    for (index, predicate) in predicates.enumerated() {
      let set = ByteSet(predicate)
      let wrong = (0...255).map(UInt8.init).filter { set.contains($0) != predicate($0) }
      #expect(wrong.isEmpty, "predicate \(index): \(wrong)")
    }
  }

  @Test("A bare placeholder name is read without the parser exactly as the parser reads it, and nothing else is")
  func plainNames() {
    for name in Placeholder.Name.allCases {
      let inner = ArraySlice(name.rawValue.utf8)
      #expect(Placeholder.plainName(inner) == name)
      #expect(Placeholder.parse(name.rawValue) == .success(Placeholder(name: name, transforms: [])))
    }
    for other in ["client_id|upper", "redirect_uri.host", "client_ix", "universal_lin", "redirect_url", ""] {
      #expect(Placeholder.plainName(ArraySlice(other.utf8)) == nil, "\(other)")
    }
  }

  @Test("memchr and memcmp helpers: the first byte within a range, and byte-for-byte string equality")
  func byteScan() {
    let bytes: [UInt8] = Array("a&b&c".utf8)
    bytes.withUnsafeBufferPointer { buffer in
      #expect(Bytes.first(UInt8(ascii: "&"), in: buffer, 0..<5) == 1)
      #expect(Bytes.first(UInt8(ascii: "&"), in: buffer, 2..<5) == 3)
      #expect(Bytes.first(UInt8(ascii: "&"), in: buffer, 4..<5) == nil)
      #expect(Bytes.first(UInt8(ascii: "&"), in: buffer, 3..<3) == nil)
    }
    #expect(Bytes.equal("caf\u{E9}", "caf\u{E9}"))
    #expect(!Bytes.equal("caf\u{E9}", "cafe\u{301}"))
    #expect(!Bytes.equal("abc", "abd"))
    #expect(Bytes.equal([UInt8](), []))
  }
}
