extension MarkdownReport {
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
