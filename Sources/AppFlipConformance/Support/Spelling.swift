/// Suggests the known name nearest to a misspelled one ("did you mean …?").
enum Spelling {
  /// The known name within `maxEdits` edits (Levenshtein, case-insensitive) of `name` that is nearest, if any.
  static func closest(to name: String, in known: [String], maxEdits: Int) -> String? {
    let target = Array(name.lowercased())
    let scored = known.map { ($0, distance(target, Array($0.lowercased()))) }
    guard let best = scored.min(by: { $0.1 < $1.1 }), best.1 <= maxEdits else { return nil }
    return best.0
  }

  private static func distance(_ a: [Character], _ b: [Character]) -> Int {
    var previous = Array(0...b.count)
    for (i, x) in a.enumerated() {
      var current = [i + 1]
      for (j, y) in b.enumerated() {
        current.append(min(previous[j + 1] + 1, current[j] + 1, previous[j] + (x == y ? 0 : 1)))
      }
      previous = current
    }
    return previous[b.count]
  }
}
