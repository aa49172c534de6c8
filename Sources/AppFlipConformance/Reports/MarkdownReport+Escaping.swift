extension MarkdownReport {
  /// Text made inert in Markdown: punctuation that starts markup is backslash-escaped, line breaks become spaces.
  static func text(_ string: String) -> String {
    let characters = Array(visible(capped(string, 1_000), lineBreaks: false))
    var out = ""
    for (index, character) in characters.enumerated() {
      switch character {
      case "\\", "`", "*", "[", "]", "<", ">", "|", "#", "~", "&", "$", "!":
        out += "\\\(character)"
      case "_":
        // An underscore inside a word never starts emphasis in GFM; elsewhere it might.
        let inWord =
          index > 0 && index < characters.count - 1 && characters[index - 1].isLetterOrDigit
          && characters[index + 1].isLetterOrDigit
        out += inWord ? "_" : "\\_"
      default:
        out.append(character)
      }
    }
    return out
  }

  /// An inline code span whose fence is longer than any backtick run inside it.
  static func code(_ string: String) -> String {
    let content = visible(capped(string, 200), lineBreaks: false)
    guard !content.isEmpty else { return "(empty)" }
    let ticks = String(repeating: "`", count: longestRun(of: "`", in: content) + 1)
    let pad = content.first == "`" || content.last == "`" || (content.first == " " && content.last == " ") ? " " : ""
    return ticks + pad + content + pad + ticks
  }

  /// A fenced code block whose fence is longer than any backtick run inside it.
  static func fence(_ string: String) -> String {
    var content = visible(string, lineBreaks: true)
    while content.hasSuffix("\n") { content.removeLast() }
    let ticks = String(repeating: "`", count: max(3, longestRun(of: "`", in: content) + 1))
    return ticks + "text\n" + content + "\n" + ticks
  }

  /// The string cut to `limit` characters, with a note of how many were left out.
  static func capped(_ string: String, _ limit: Int) -> String {
    let total = string.count
    guard total > limit else { return string }
    return String(string.prefix(limit)) + " … (\(total - limit) more characters)"
  }

  /// Control characters shown as `\u{…}`; line breaks kept (or turned into spaces) and tabs kept.
  static func visible(_ string: String, lineBreaks: Bool) -> String {
    var out = ""
    out.unicodeScalars.reserveCapacity(string.unicodeScalars.count)
    for scalar in string.unicodeScalars {
      switch scalar.value {
      case 0x0A: out += lineBreaks ? "\n" : " "
      case 0x09: out.unicodeScalars.append(scalar)
      case 0x00..<0x20, 0x7F...0x9F, 0x2028, 0x2029, 0xFFFE, 0xFFFF:
        out += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
      default: out.unicodeScalars.append(scalar)
      }
    }
    return out
  }

  static func longestRun(of target: Character, in string: String) -> Int {
    var longest = 0
    var current = 0
    for character in string {
      current = character == target ? current + 1 : 0
      longest = max(longest, current)
    }
    return longest
  }
}

extension Character {
  fileprivate var isLetterOrDigit: Bool { isLetter || isNumber }
}
