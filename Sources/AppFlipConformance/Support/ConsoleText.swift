/// Makes text from data safe for a terminal or a report: no control character (ESC, OSC, a carriage return, a newline
/// that forges a line of its own, a bidirectional override that reorders what a reader sees) reaches it raw, and no
/// console line grows with the input.
enum ConsoleText {
  /// The most characters a console line shows; longer ones show their head and tail and how long they are.
  static let maxLine = 2_000

  /// Text that may span lines (a diff, an adapter's stderr): line breaks kept, every other control character shown as
  /// `\u{…}`, each line capped.
  static func safe(_ text: String) -> String {
    guard needsWork(text) else { return text }
    return text.split(separator: "\n", omittingEmptySubsequences: false)
      .map { Quoted.cut(visible($0), limit: maxLine) }
      .joined(separator: "\n")
  }

  /// Text that must stay on one line (an id, a path): line breaks shown as `\u{A}` too.
  static func line(_ text: String) -> String {
    guard needsWork(text) || text.contains("\n") else { return text }
    return Quoted.cut(visible(text), limit: maxLine)
  }

  private static func needsWork(_ text: String) -> Bool {
    text.utf8.count > maxLine || text.unicodeScalars.contains { $0 != "\n" && isControl($0) }
  }

  /// Whether a scalar is never shown raw: a control character but a tab (C0, DEL, C1), a line or paragraph separator,
  /// a bidirectional embedding, override or isolate, or the noncharacters U+FFFE and U+FFFF.
  private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x09: false
    case 0x00..<0x20, 0x7F...0x9F, 0x2028...0x202E, 0x2066...0x2069, 0xFFFE, 0xFFFF: true
    default: false
    }
  }

  /// The text with every control character but a tab shown as `\u{…}`, and each line break as `lineBreak` when one is
  /// given (the Markdown report's kept or turned into a space).
  static func visible(_ text: some StringProtocol, lineBreak: String? = nil) -> String {
    var out = ""
    out.reserveCapacity(text.utf8.count)
    for scalar in text.unicodeScalars {
      if scalar == "\n", let lineBreak {
        out += lineBreak
      } else if isControl(scalar) {
        out += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
      } else {
        out.unicodeScalars.append(scalar)
      }
    }
    return out
  }
}
