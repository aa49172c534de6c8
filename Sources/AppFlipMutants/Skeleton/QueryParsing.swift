import AppFlip

/// The parse step: splitting an incoming link into decoded parameters, correctly or in the ways the mutants get it
/// wrong (`split`'s options).
public enum QueryParsing {
  /// Correct: the query runs from the first `?` to the first `#`, splits on `&`, and names and values are decoded once.
  @Sendable public static func splitByHand(_ link: String) -> [LinkParameter] {
    split(link, decodeValue: decoded)
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
