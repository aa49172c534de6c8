/// Makes any text safe inside XML 1.0: escapes markup, and shows characters XML cannot carry as visible `\u{…}` text.
enum XMLText {
  /// Escaped for element content.
  static func content(_ string: String) -> String {
    let buffer = XMLBuffer(capacity: string.utf8.count)
    buffer.content(string)
    return buffer.string
  }

  /// Escaped for a double-quoted attribute; line breaks and tabs survive as character references.
  static func attribute(_ string: String) -> String {
    let buffer = XMLBuffer(capacity: string.utf8.count)
    buffer.attribute(string)
    return buffer.string
  }
}
