extension MarkdownReport {
  /// Text made inert in Markdown: punctuation that starts markup is backslash-escaped, line breaks become spaces.
  static func text(_ string: String) -> String {
    let characters = Array(ConsoleText.visible(capped(string, 1_000), lineBreak: " "))
    var out = ""
    for (index, character) in characters.enumerated() {
      switch character {
      case "\\", "`", "*", "[", "]", "<", ">", "|", "#", "~", "&", "$", "!":
        out += "\\\(character)"
      case "_":
        // An underscore inside a word never starts emphasis in GFM; elsewhere it might.
        let inWord =
          index > 0 && index < characters.count - 1
          && (characters[index - 1].isLetter || characters[index - 1].isNumber)
          && (characters[index + 1].isLetter || characters[index + 1].isNumber)
        out += inWord ? "_" : "\\_"
      default:
        out.append(character)
      }
    }
    return out
  }

  /// An inline code span whose fence is longer than any backtick run inside it.
  static func code(_ string: String) -> String {
    let content = ConsoleText.visible(capped(string, 200), lineBreak: " ")
    guard !content.isEmpty else { return "(empty)" }
    let ticks = String(repeating: "`", count: longestRun(of: "`", in: content) + 1)
    let pad = content.first == "`" || content.last == "`" || (content.first == " " && content.last == " ") ? " " : ""
    return ticks + pad + content + pad + ticks
  }

  /// A fenced code block whose fence is longer than any backtick run inside it.
  static func fence(_ string: String) -> String {
    var content = ConsoleText.visible(string, lineBreak: "\n")
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

  static func longestRun(of target: Character, in string: String) -> Int {
    var longest = 0
    var current = 0
    for character in string {
      current = character == target ? current + 1 : 0
      longest = max(longest, current)
    }
    return longest
  }

  /// Joins blocks with blank lines; past `maxBytes`, leaves out the last blocks (never the first `keeping`) with a note.
  static func assemble(_ blocks: [String], keeping: Int, maxBytes: Int) -> String {
    let noteReserve = 400
    var kept: [String] = []
    var used = 0
    for (index, block) in blocks.enumerated() {
      let needed = size([block]) + (index == blocks.count - 1 ? 0 : noteReserve)
      if index >= keeping, used + needed > maxBytes {
        kept.append(
          "> **Truncated:** \(Count.of(blocks.count - index, "more block")) left out to stay within \(maxBytes) bytes "
            + "(GitHub accepts 1 MiB per job summary); the JSON results file has every result.")
        break
      }
      kept.append(block)
      used += size([block])
    }
    return kept.joined(separator: "\n\n") + "\n"
  }

  /// The bytes blocks take once joined.
  static func size(_ blocks: [String]) -> Int {
    blocks.reduce(0) { $0 + $1.utf8.count + 2 }
  }

  /// Results grouped by a key, biggest group first, then keys in rule order; results keep their order.
  static func grouped(
    _ results: [VectorResult], by key: (VectorResult) -> String
  ) -> [(String, [VectorResult])] {
    var groups: [String: [VectorResult]] = [:]
    for result in results { groups[key(result), default: []].append(result) }
    return groups.sorted { lhs, rhs in
      lhs.value.count != rhs.value.count ? lhs.value.count > rhs.value.count : ruleOrder(lhs.key, rhs.key)
    }.map { ($0.key, $0.value) }
  }

  /// The rule a result is filed under: its first finding at `level`, else its first finding.
  static func primaryRule(_ result: VectorResult, _ level: Level) -> String {
    (result.findings.first { $0.level == level } ?? result.findings.first)?.rule ?? "no finding"
  }

  /// Orders rule ids with their numbers compared as numbers (`AF-RE-2` before `AF-RE-10`).
  static func ruleOrder(_ lhs: String, _ rhs: String) -> Bool {
    let left = lhs.split(separator: "-")
    let right = rhs.split(separator: "-")
    for (a, b) in zip(left, right) where a != b {
      if let x = Int(a), let y = Int(b) { return x < y }
      return a < b
    }
    return left.count < right.count
  }

  /// The line that lists the results a section shows no more of by id (none when there are none).
  static func more(_ rest: ArraySlice<VectorResult>, _ limits: Limits) -> [String] {
    rest.isEmpty ? [] : ["… and \(rest.count) more: \(listed(rest.map { code($0.id) }, limit: limits.listedPerGroup))"]
  }

  /// Items joined with commas, at most `limit` of them, then "… and K more".
  static func listed(_ items: [String], limit: Int) -> String {
    var out = items.prefix(limit).joined(separator: ", ")
    if items.count > limit { out += ", … and \(items.count - limit) more" }
    return out
  }

  /// A message split into its wording and its values: each quoted string and each number standing on its own (not
  /// part of a word such as `ios16` or `ACME-12`), so messages of one cause share a key.
  struct Cause {
    /// The message's parts, each wording or a value.
    let parts: [(text: Substring, isValue: Bool)]

    init(_ message: String) {
      var parts: [(Substring, Bool)] = []
      var index = message.startIndex
      var wording = index
      func isWordy(_ character: Character) -> Bool { character.isLetter || character.isNumber || character == "-" }
      while index < message.endIndex {
        let character = message[index]
        var end: String.Index?
        if character == "\"" {
          // A quoted value runs to the next quote not escaped.
          var cursor = message.index(after: index)
          while cursor < message.endIndex, message[cursor] != "\"" {
            if message[cursor] == "\\" { cursor = message.index(after: cursor) }
            if cursor < message.endIndex { cursor = message.index(after: cursor) }
          }
          end = cursor < message.endIndex ? message.index(after: cursor) : nil
        } else if character.isASCII, character.isNumber,
          index == message.startIndex || !isWordy(message[message.index(before: index)])
        {
          let digits = message[index...].prefix { $0.isASCII && $0.isNumber }
          let after = digits.endIndex
          if after == message.endIndex || !isWordy(message[after]) { end = after }
        }
        guard let end else {
          index = message.index(after: index)
          continue
        }
        if wording < index { parts.append((message[wording..<index], false)) }
        parts.append((message[index..<end], true))
        index = end
        wording = end
      }
      if wording < message.endIndex { parts.append((message[wording...], false)) }
      self.parts = parts
    }

    /// The wording with each value masked: the key messages of one cause share.
    var key: String { parts.map { $0.isValue ? "\u{0}" : String($0.text) }.joined() }

    /// Messages of one cause as one: each value they all share as it is, each that differs as `…`.
    static func shown(_ messages: [String]) -> String {
      let causes = messages.map(Cause.init)
      guard let first = causes.first else { return "" }
      return first.parts.indices.map { index in
        let part = first.parts[index]
        guard part.isValue, causes.contains(where: { $0.parts[index].text != part.text }) else {
          return String(part.text)
        }
        return part.text.hasPrefix("\"") ? "\"…\"" : "…"
      }.joined()
    }
  }
}
