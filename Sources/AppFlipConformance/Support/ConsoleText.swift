/// Makes text from data safe for a terminal: no control character (ESC, OSC, a carriage return, a newline that forges
/// a line of its own) reaches it raw, and no line grows with the input.
enum ConsoleText {
  /// The most characters a console line shows; longer ones show their head and tail and how long they are.
  static let maxLine = 2_000

  /// Text that may span lines (a diff, an adapter's stderr): line breaks kept, every other control character shown as
  /// `\u{…}`, each line capped.
  static func safe(_ text: String) -> String {
    guard needsWork(text) else { return text }
    return text.split(separator: "\n", omittingEmptySubsequences: false)
      .map { Quoted.cut(escaped(Substring($0)), limit: maxLine) }
      .joined(separator: "\n")
  }

  /// Text that must stay on one line (an id, a path): line breaks shown as `\u{A}` too.
  static func line(_ text: String) -> String {
    guard needsWork(text) || text.contains("\n") else { return text }
    return Quoted.cut(escaped(Substring(text)), limit: maxLine)
  }

  private static func needsWork(_ text: String) -> Bool {
    text.utf8.count > maxLine
      || text.unicodeScalars.contains { ($0.value < 0x20 && $0 != "\n" && $0 != "\t") || isControl($0) }
  }

  private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
    scalar.value == 0x7F || (0x80...0x9F).contains(scalar.value)
      || (0x202A...0x202E).contains(scalar.value) || (0x2066...0x2069).contains(scalar.value)
  }

  /// One line with every control character but a tab shown as `\u{…}`.
  private static func escaped(_ text: Substring) -> String {
    var out = ""
    out.reserveCapacity(text.utf8.count)
    for scalar in text.unicodeScalars {
      if scalar != "\t" && (scalar.value < 0x20 || isControl(scalar)) {
        out += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
      } else {
        out.unicodeScalars.append(scalar)
      }
    }
    return out
  }
}
