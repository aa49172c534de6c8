import Foundation
import Testing

@testable import AppFlipConformance

/// The fast reader of the implementation's lines (issue 13, item 5: `JSONDecoder` was half the harness's time per step
/// over `--exec`; issue 24: `JSONSyntax`'s scanner, the package's one hand-made JSON reader) must read every ordinary
/// line exactly as `JSONDecoder` does, and leave everything else to it.
@Suite("Subprocess fast reader")
struct SubprocessFastReaderTests {
  static let ordinary: [(String, Int)] = [
    (#"{"seq":1,"opened":null}"#, 2),
    (#"{"seq": 2, "opened": {"url": "https://a.example/?x=1&y=%2B", "universalLinksOnly": true}}"#, 2),
    (#"{"seq":3,"opened":{"url":"e\u0301 \u00e9 \ud83d\ude00 \u2028 \/ \t"}}"#, 2),
    (#"{"seq":4,"skipped":{"reason":"no \"sandbox\" client\\n"}}"#, 2),
    (#"{"seq":5,"errored":{"message":"the keychain is locked"}}"#, 2),
    (#"{"seq":6,"codeRequest":{"clientId":"c","redirectUri":"https://r.example/","scopes":["a","b c"]}}"#, 2),
    (#"{"seq":7,"opened":null,"authorization":[{"clientId":"c","redirectUri":"r","scopes":[]}]}"#, 1),
    (#"{"opened":{"universalLinksOnly":false,"url":"u"},"seq":8}"#, 2),
    ("{\"seq\":9,\"opened\":{\"url\":\"\u{E9} \u{1F600}\"}}", 2),  // raw UTF-8, checked by the scan
    (#"{"seq":-0,"skipped":{"reason":""}}"#, 2),
  ]

  @Test("Reads ordinary answers and code requests exactly as JSONDecoder does, scalar for scalar", arguments: ordinary)
  func agreesWithJSONDecoder(_ line: String, _ version: Int) throws {
    let fast = try #require(SubprocessProtocol.Incoming(fast: Array(line.utf8), version: version))
    let slow = try SubprocessProtocol.decoder(version: version).decode(
      SubprocessProtocol.Incoming.self, from: Data(line.utf8))
    #expect(fast.envelope.seq == slow.envelope.seq)
    #expect(fast.envelope.isCodeRequest == slow.envelope.isCodeRequest)
    let scalars = { (value: Any?) in Array(String(reflecting: value).unicodeScalars) }
    #expect(scalars(try fast.response?.get()) == scalars(try slow.response?.get()))
    #expect(scalars(try fast.codeRequest?.get()) == scalars(try slow.codeRequest?.get()))
    #expect(fast.response != nil || fast.codeRequest != nil)
  }

  static let unusual: [(String, Int)] = [
    (#"{"seq":1,"opened":null,"opened":null}"#, 2),  // a duplicate key: JSONSyntax names it
    (#"{"seq":1,"opened":null,"extra":1}"#, 2),  // an unknown field
    (#"{"seq":1,"opened":null,"authorization":[]}"#, 2),  // not part of version 2
    (#"{"seq":1.0,"opened":null}"#, 2),
    (#"{"seq":01,"opened":null}"#, 2),
    (#"{"seq":1,"opened":{"url":"\ud800"}}"#, 2),  // a lone surrogate
    ("{\"seq\":1,\"opened\":{\"url\":\"\u{1}\"}}", 2),  // a raw control character
    (#"{"seq":1,"opened":{"url":"u","options":{"a":true}}}"#, 2),
    (#"{"seq":1,"opened":{"url":"u","universalLinksOnly":null}}"#, 2),
    (#"{"seq":1,"opened":null} x"#, 2),
    (#"{"seq":1,"skipped":{"reason":"r"},"errored":{"message":"m"}}"#, 2),
    (#"{"seq":1,"codeRequest":{"clientId":"c","redirectURI":"r","scopes":[]}}"#, 2),
    (#"{"seq":1,"opened":null}"#, 1),  // version 1 needs "authorization"
    ("not json", 2),
  ]

  @Test(
    "Leaves to JSONDecoder every line it must explain: duplicates, unknown fields, fractions, odd strings",
    arguments: unusual)
  func givesUp(_ line: String, _ version: Int) {
    #expect(SubprocessProtocol.Incoming(fast: Array(line.utf8), version: version) == nil)
  }

  @Test("Leaves to JSONDecoder a line whose string is not UTF-8")
  func givesUpOnInvalidUTF8() {
    let line = Array(#"{"seq":1,"opened":{"url":"é"}}"#.utf8).map { $0 == 0xA9 ? 0xFF : $0 }
    #expect(SubprocessProtocol.Incoming(fast: line, version: 2) == nil)
  }
}
