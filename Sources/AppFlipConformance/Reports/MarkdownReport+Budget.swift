extension MarkdownReport {
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
}
