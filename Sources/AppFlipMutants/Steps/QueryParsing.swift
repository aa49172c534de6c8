import AppFlip
import Foundation

/// The parse step: splitting an incoming link into decoded parameters, correctly and in the ways partners get it wrong.
public enum QueryParsing {
  /// Correct: the query runs from the first `?` to the first `#`, splits on `&`, and names and values are decoded once.
  @Sendable public static func splitByHand(_ link: String) -> [LinkParameter] {
    split(link, decodeValue: decoded)
  }

  /// Bug: decodes with Foundation's `removingPercentEncoding`, which drops a leading byte-order mark (U+FEFF).
  @Sendable public static func foundationDecoding(_ link: String) -> [LinkParameter] {
    split(link, decodeName: { $0.removingPercentEncoding }, decodeValue: { $0.removingPercentEncoding })
  }

  /// Bug: form-decodes the link (`application/x-www-form-urlencoded`, WHATWG `URLSearchParams`, Android's
  /// `Uri.getQueryParameter`), so a raw `+` reads as a space where iOS's `URLComponents` reads a plus (AF-IN-9).
  @Sendable public static func formDecoding(_ link: String) -> [LinkParameter] {
    let formDecoded: (String) -> String? = { PercentEncoding.decode($0, plusAsSpace: true).flatMap(Bytes.utf8String) }
    return split(link, decodeName: formDecoded, decodeValue: formDecoded)
  }

  /// Bug: decodes each value a second time, as a handler that decodes `queryItems` values again does.
  @Sendable public static func decodingTwice(_ link: String) -> [LinkParameter] {
    split(link) { value in decoded(value).map { decoded($0) ?? $0 } }
  }

  /// Bug: trims whitespace and newlines around every value.
  @Sendable public static func trimmingValues(_ link: String) -> [LinkParameter] {
    split(link) { value in decoded(value)?.trimmingCharacters(in: .whitespacesAndNewlines) }
  }

  /// Bug: treats `;` as a second separator, as old HTML form parsers do.
  @Sendable public static func splittingOnSemicolons(_ link: String) -> [LinkParameter] {
    split(link, separators: ["&", ";"], decodeValue: decoded)
  }

  /// Bug: splits with `String`'s `Character` methods, so a delimiter followed by a combining mark is not one.
  @Sendable public static func splittingGraphemes(_ link: String) -> [LinkParameter] {
    split(link, unit: .character, decodeValue: decoded)
  }

  /// Bug: keeps the fragment as part of the query, so `#…` ends up in the last value.
  @Sendable public static func keepingFragment(_ link: String) -> [LinkParameter] {
    split(link, stripFragment: false, decodeValue: decoded)
  }

  /// Bug: decodes values but compares names as written, so `client%5Fid` is not `client_id`.
  @Sendable public static func leavingNamesEncoded(_ link: String) -> [LinkParameter] {
    split(link, decodeName: { $0 }, decodeValue: decoded)
  }

  /// Bug: force-unwraps every decoded value, so a broken escape or invalid UTF-8 crashes the app.
  @Sendable public static func forceUnwrapping(_ link: String) throws -> [LinkParameter] {
    try split(link) { value in
      guard let text = decoded(value) else { throw PartnerCrash(what: "the decoded value") }
      return text
    }
  }

  /// Decodes `%XX` escapes exactly once and byte for byte; `nil` for a broken escape or invalid UTF-8.
  public static func decoded(_ text: String) -> String? {
    PercentEncoding.decode(text).flatMap(Bytes.utf8String)
  }

  /// What delimiters are searched in: Unicode scalars (correct: `&` is one scalar whatever follows) or grapheme clusters.
  enum Unit {
    case scalar, character
  }

  /// Splits a link's query into `name=value` pairs and decodes each part with the given functions.
  static func split(
    _ link: String, stripFragment: Bool = true, separators: Set<Character> = ["&"], unit: Unit = .scalar,
    decodeName: (String) -> String? = decoded, decodeValue: (String) throws -> String?
  ) rethrows -> [LinkParameter] {
    let pieces: (Substring, (Character) -> Bool, Int) -> [Substring]
    switch unit {
    case .character:
      pieces = { text, isSeparator, limit in
        text.split(maxSplits: limit, omittingEmptySubsequences: false, whereSeparator: isSeparator)
      }
    case .scalar:
      pieces = { text, isSeparator, limit in
        text.unicodeScalars.split(maxSplits: limit, omittingEmptySubsequences: false) {
          isSeparator(Character($0))
        }.map { Substring($0) }
      }
    }
    let beforeFragment = stripFragment ? pieces(Substring(link), { $0 == "#" }, 1)[0] : Substring(link)
    let halves = pieces(beforeFragment, { $0 == "?" }, 1)
    guard halves.count == 2 else { return [] }
    return try pieces(halves[1], separators.contains, .max).filter { !$0.isEmpty }.map { pair in
      let parts = pieces(pair, { $0 == "=" }, 1)
      let value = parts.count > 1 ? String(parts[1]) : ""
      return LinkParameter(name: decodeName(String(parts[0])), value: try decodeValue(value))
    }
  }
}
