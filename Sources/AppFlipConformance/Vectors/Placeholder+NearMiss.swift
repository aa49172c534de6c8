extension Placeholder {
  /// The longest `{…}` read as a near miss of a placeholder; longer braces are literal text.
  static let nearMissLimit = 64

  /// The placeholder a `{…}` that is not one as written most likely means, once its case, spaces and separators are
  /// fixed: `{CLIENT_ID}`, `{clientId}`, `{client-id}` and `{ redirect_uri }` mean `{client_id}` and `{redirect_uri}`;
  /// `nil` when it reads as no placeholder (literal text such as `{A}` or `{"a":1}`).
  static func meant(by inner: String) -> String? {
    var pieces = inner.split(separator: "|", omittingEmptySubsequences: false).map { trimmed($0) }
    let head = pieces.removeFirst()
    let nameAndPart = head.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false).map { trimmed($0) }
    let written = words(nameAndPart[0]).joined(separator: "_")
    let names = Name.allCases.map(\.rawValue)
    guard let name = names.contains(written) ? written : Spelling.closest(to: written, in: names, maxEdits: 1) else {
      return nil
    }
    var meant = name
    if nameAndPart.count == 2 { meant += "." + words(nameAndPart[1]).joined() }
    for piece in pieces { meant += "|" + words(piece).joined(separator: "-") }
    // A near miss whose parts or transforms do not exist either: name the placeholder alone.
    guard case .success = parse(meant) else { return "{\(name)}" }
    return "{\(meant)}"
  }

  /// Whether a byte may appear in a near miss: ASCII letters and digits, `_ - . |` and blanks.
  static func isNearMissByte(_ byte: UInt8) -> Bool {
    isTokenByte(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
      || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: " ")
      || byte == UInt8(ascii: "\t")
  }

  /// The near miss starting at `start` (a `{`): where it ends (after its `}`) and the refusal naming the placeholder
  /// meant; `nil` when the braces are literal text.
  static func nearMiss(in bytes: [UInt8], at start: Int) -> Token? {
    var end = start + 1
    while end < bytes.count && end - start <= nearMissLimit && isNearMissByte(bytes[end]) { end += 1 }
    guard end < bytes.count, bytes[end] == UInt8(ascii: "}"), end > start + 1 else { return nil }
    let inner = String(decoding: bytes[(start + 1)..<end], as: UTF8.self)
    guard let meant = meant(by: inner) else { return nil }
    return Token(
      range: start..<(end + 1),
      parsed: .failure(
        ParseError(
          message:
            "\"{\(inner)}\" is not a placeholder (did you mean \"\(meant)\"?); placeholders are lower case with underscores and no spaces, e.g. \(Name.allCases.map { "{\($0.rawValue)}" }.joined(separator: ", "))"
        )))
  }

  /// A near miss's words, lower-cased: split at blanks, `_`, `-`, and where a lower-case letter or digit meets an
  /// upper-case one (`clientId`, `redirectURI`).
  private static func words(_ text: String) -> [String] {
    var words: [String] = []
    var current = ""
    var previousIsLowerOrDigit = false
    for character in text {
      if character == " " || character == "\t" || character == "_" || character == "-" {
        if !current.isEmpty { words.append(current) }
        current = ""
        previousIsLowerOrDigit = false
        continue
      }
      if character.isUppercase && previousIsLowerOrDigit && !current.isEmpty {
        words.append(current)
        current = ""
      }
      current += character.lowercased()
      previousIsLowerOrDigit = character.isLowercase || character.isNumber
    }
    if !current.isEmpty { words.append(current) }
    return words
  }

  private static func trimmed(_ text: Substring) -> String {
    String(text.drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
  }
}
