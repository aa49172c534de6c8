extension JSONSyntax {
  /// Why bytes are not acceptable JSON, with where.
  struct Problem: Error, Sendable, Hashable, CustomStringConvertible {
    /// 1-based line.
    var line: Int
    /// 1-based column, in characters.
    var column: Int
    /// What is wrong there, in words.
    var reason: String
    /// The path of the duplicated field (`vectors[2].expect.reply.state`), for a duplicate key only.
    var duplicateField: String?

    /// `line L, column C: reason`.
    var description: String { "line \(line), column \(column): \(reason)" }
  }
}
