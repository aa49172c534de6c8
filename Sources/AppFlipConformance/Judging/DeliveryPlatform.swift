import AppFlip

/// The platform a partner's app targets, which decides whether an incoming link can reach the app at all: the OS
/// builds the `URL` (`NSURL`, `android.net.Uri`) before the app sees it, with that platform's own parser.
///
/// - `ios16`: iOS before 17. `URL(string:)` and the `NSURL` iOS hands to `application(_:continue:)` use CFURL's
///   RFC 1738/1808 check (`_CFStringIsLegalURLString`): every UTF-16 unit must be an ASCII letter or digit, one of
///   `-_.!~*'()`, `;/?:@&=+$,` or `[]`, a `%` followed by two hex digits, or a single `#`; anything else (a space, a
///   raw non-ASCII character or combining mark, `"<>\^`{|}`, a control character, a broken `%` escape, a second
///   `#`) makes it return nil, and the link is never delivered.
/// - `ios17`: iOS 17 and later. `URL(string:)` parses by RFC 3986 and percent-encodes what is invalid (Apple, "URL",
///   `init(string:encodingInvalidCharacters:)`), so a link with a valid scheme and host is delivered, in the form
///   `FoundationURLParser` computes: a component holding a character it must encode is encoded whole, `%` included.
/// - `android`: `android.net.Uri.parse` is lenient and never fails, so every link is delivered as it is.
public enum DeliveryPlatform: String, Sendable, Hashable, Codable, CaseIterable {
  /// iOS before 17 (the RFC 1738/1808 `URL(string:)`).
  case ios16
  /// iOS 17 and later (the RFC 3986 `URL(string:)`, encoding invalid characters).
  case ios17
  /// Android (`android.net.Uri`).
  case android

  /// The platform for reports, e.g. "iOS before 17".
  package var displayName: String {
    switch self {
    case .ios16: "iOS before 17"
    case .ios17: "iOS 17 or later"
    case .android: "Android"
    }
  }

  /// Why the platform cannot deliver `link` to the app, in one clause; `nil` when it can.
  package func undeliverable(_ link: String) -> String? {
    guard case .failure(let refusal) = delivered(link) else { return nil }
    return refusal.reason
  }

  /// The link as the app on this platform receives it (the string of the `URL` the OS hands over), or why it never
  /// arrives: unchanged before iOS 17 and on Android, re-encoded by `FoundationURLParser` on iOS 17.
  package func delivered(_ link: String) -> Result<String, FoundationURLParser.Refusal> {
    switch self {
    case .ios16:
      guard let problem = DeliveryPlatform.legacyURLProblem(link) else { return .success(link) }
      return .failure(
        .init(
          reason:
            "URL(string:) before iOS 17 (RFC 1738/1808) returns nil for it because of \(problem), so iOS never hands it to the app"
        ))
    case .ios17:
      return FoundationURLParser.parse(link).mapError {
        .init(
          reason:
            "URL(string:) on iOS 17 (RFC 3986) returns nil for it because \($0.reason), so iOS never hands it to the app"
        )
      }
    case .android:
      return .success(link)
    }
  }

  /// What makes CFURL's pre-iOS 17 check refuse `string`, e.g. `a raw "é" (U+E9) at character 57`; `nil` when it passes.
  ///
  /// The rule of `_CFStringIsLegalURLString` (CoreFoundation, CFURL.c), which reads UTF-16 code units: as it refuses
  /// every unit past ASCII, it is applied to the bytes.
  package static func legacyURLProblem(_ string: String) -> String? {
    var string = string
    return string.withUTF8 { bytes -> String? in
      guard !bytes.isEmpty else { return "an empty string" }
      var sawHash = false
      var index = 0
      // The units from a refused character on, as CFURL reads them; every byte before it was ASCII, so `index` is also
      // its position in units.
      func units() -> String.UTF16View {
        String(decoding: UnsafeBufferPointer(rebasing: bytes[index...]), as: UTF8.self).utf16
      }
      while index < bytes.count {
        // Runs of letters, digits and the other plain characters, most of a reply, in a tight loop.
        while index < bytes.count && legalBytes.contains(bytes[index]) { index += 1 }
        guard index < bytes.count else { break }
        let byte = bytes[index]
        if byte == UInt8(ascii: "%") {
          guard index + 2 < bytes.count, Hex.value(bytes[index + 1]) != nil, Hex.value(bytes[index + 2]) != nil else {
            let escape = String(decoding: units().prefix(3), as: UTF16.self)
            return "a broken percent-escape \(Quoted.string(escape)) at character \(index)"
          }
          index += 3
        } else if byte == UInt8(ascii: "#") && !sawHash {
          sawHash = true
          index += 1
        } else {
          let unit = units().first!
          if unit == UInt16(UInt8(ascii: "#")) { return "a second \"#\" at character \(index)" }
          let hex = String(unit, radix: 16, uppercase: true)
          let code = "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
          let shown =
            unit < 0x80 && unit >= 0x20 && unit != 0x7F
            ? "\(Quoted.string(String(decoding: [unit], as: UTF16.self))) (\(code))" : code
          return "a raw \(shown) at character \(index)"
        }
      }
      return nil
    }
  }

  /// The bytes CFURL's check allows as they are: an ASCII letter or digit, or one of `-_.!~*'();/?:@&=+$,[]`.
  static let legalBytes = ByteSet { byte in
    (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20)
      || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || "-_.!~*'();/?:@&=+$,[]".utf8.contains(byte)
  }
}

extension DeliveryPlatform {
  /// The step's findings with what the target changes about the reply (App Flip for iOS, step 6): on `ios16` a reply
  /// URL that `URL(string:)` rejects before iOS 17 is a reply the app cannot open (AF-V-1, AF-V-2); with no target,
  /// the reply's findings say so (or, when there are none, a MAY note does); iOS 17 and Android open it.
  static func replyFindings(
    _ findings: [Finding], platform: DeliveryPlatform?, expect: RenderedExpectation, opened: OpenedURL?
  ) -> [Finding] {
    guard expect.reply != nil, let opened, let problem = legacyURLProblem(opened.url) else { return findings }
    switch platform {
    case .ios16:
      return findings + [
        Finding(
          rule: expect.verdict == .rejected ? "AF-V-2" : "AF-V-1", level: .must, field: "opened",
          expected: "a reply URL that URL(string:) accepts before iOS 17",
          actual: "\(Quoted.string(opened.url)), with \(problem)",
          message:
            "Before iOS 17, URL(string:) returns nil for this reply, so an app that builds it with URL(string:) opens"
            + " nothing (--platform ios16); percent-encode every value (AF-RE-6).")
      ]
    case nil:
      let note =
        "Before iOS 17, URL(string:) returns nil for this reply URL (\(problem)): on that target (--platform ios16)"
        + " the app opens nothing."
      guard findings.contains(where: { $0.field.hasPrefix("reply.") }) else {
        return findings + [
          Finding(
            rule: expect.verdict == .rejected ? "AF-V-2" : "AF-V-1", level: .may, field: "opened",
            expected: "a reply URL that URL(string:) accepts on every iOS", actual: Quoted.string(opened.url),
            message: note)
        ]
      }
      return findings.map { finding in
        guard finding.field.hasPrefix("reply.") else { return finding }
        var noted = finding
        noted.message += " " + note
        return noted
      }
    case .ios17, .android:
      return findings
    }
  }
}
