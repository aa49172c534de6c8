import AppFlipVectors
import Foundation

/// The rules of `RULES.md`: each table row `| AF-… | rule | LEVEL | source | summary | fix |`.
package struct RulesDocument: Sendable, Hashable {
  /// One rule row.
  package struct Rule: Sendable, Hashable {
    /// The id, e.g. `AF-RU-2`.
    package var id: String
    /// The level column as written, e.g. `MUST` or `SHOULD / MUST`.
    package var level: String
    /// The rule's one-line meaning (the summary column), which the Markdown report heads a rule's failures with;
    /// `nil` when the row has none.
    package var summary: String?
    /// One concrete sentence on how to fix a handler that breaks the rule (the fix column); `nil` when the row has
    /// none.
    package var fix: String?
  }

  /// The rules in document order.
  package var rules: [Rule]

  /// Reads the rule rows of a Markdown rules document, leaving out its generated coverage section.
  package init(markdown: String) {
    var text = Substring(markdown)
    let (begin, end) = CorpusLint.coverageMarkers
    if let start = text.range(of: begin), let stop = text.range(of: end, range: start.upperBound..<text.endIndex) {
      text = text[..<start.lowerBound] + text[stop.upperBound...]
    }
    rules = text.split(separator: "\n").compactMap { line in
      let cells = line.split(separator: "|", omittingEmptySubsequences: false).map(\.trimmingBlanks)
      guard cells.count >= 5, VectorDefinitions.isBundledRuleID(cells[1]) else { return nil }
      func cell(_ index: Int) -> String? { index < cells.count - 1 && !cells[index].isEmpty ? cells[index] : nil }
      return Rule(id: cells[1], level: cells[3], summary: cell(5), fix: cell(6))
    }
  }

  /// The rules document shipped with the suite (a copy of `RULES.md` among the bundled vectors' resources).
  package static let bundled = RulesDocument(
    markdown: (try? String(contentsOf: BundledVectors.rules, encoding: .utf8)) ?? "")

  /// The rule with this id, if the document defines it.
  package func rule(_ id: String) -> Rule? { rules.first { $0.id == id } }

  /// The rule ids.
  package var ids: [String] { rules.map(\.id) }
}

extension StringProtocol {
  /// The text without the spaces and tabs at either end (a table cell, a placeholder's near miss).
  var trimmingBlanks: String {
    String(drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
  }
}
