extension ConformanceCommand {
  /// The selection the reports name: the vectors selected before `--shard` (their count and digest), and for a shard,
  /// where each of its results stands in the unsharded run, whose results are the setup problems, the unusable vector
  /// files, every selected vector, then the waivers that match none, in that order (`ResultsMerge`). `digest` computes
  /// the selected vectors' digest (`Fingerprint.digest(of:)`) beside the run: a JSON encoding per vector, which at
  /// 10 000 vectors took the coordinating thread a third of a second after the last result.
  static func selection(
    of results: [VectorResult], selected: VectorCatalog, shard: VectorShard?, digest: Task<String, Never>
  ) async -> RunSelection {
    var selection = RunSelection(count: selected.vectors.count, digest: await digest.value)
    guard let shard else { return selection }
    let groups = VectorCatalog.group(selected.problems)
    // A problem's result is named by its file and its vector's id, or its file's path (`Runner.results(for:)`).
    func key(_ file: String, _ id: String) -> String { file + "\u{0}" + id }
    let problemIndex = Dictionary(
      groups.enumerated().map { (key($1[0].file, $1[0].vectorID ?? $1[0].file), $0) }, uniquingKeysWith: min)
    let vectorIndex = Dictionary(
      selected.vectors.enumerated().map { ($1.vector.id, $0) }, uniquingKeysWith: min)
    // The results before the first problem or vector are the same in every shard, and so are those after the last.
    let isRun = { (result: VectorResult) in
      result.origin == .vector || (result.origin == .vectorFile && !result.isNotRun)
    }
    let lead = results.firstIndex(where: isRun) ?? results.count
    let tail = (results.lastIndex(where: isRun) ?? (lead - 1)) + 1
    let body = groups.count + selected.vectors.count
    var positions: [Int] = []
    positions.reserveCapacity(results.count)
    for (index, result) in results.enumerated() {
      if index < lead {
        positions.append(index)
      } else if index >= tail {
        positions.append(lead + body + index - tail)
      } else if result.origin == .vector {
        positions.append(lead + groups.count + (vectorIndex[result.id] ?? 0))
      } else {
        positions.append(lead + (problemIndex[key(result.file, result.id)] ?? 0))
      }
    }
    selection.shard = RunSelection.Shard(
      index: shard.index, count: shard.count, of: lead + body + results.count - tail, positions: positions)
    return selection
  }
}
