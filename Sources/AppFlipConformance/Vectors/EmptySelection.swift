/// A selection (`--filter`, `--tag`, `--level`, `--flag`, `--shard`) that matches no vector: a run of it would test
/// nothing and read green, so the command refuses it (exit 2) and names it.
package struct EmptySelection: Error, Sendable, Hashable, CustomStringConvertible {
  /// The options that select nothing, as typed, e.g. `--filter 'outcome/*'`.
  package var options: [String]
  /// One sentence that names the selection and says what to do.
  package var description: String

  /// The problem with a selection, or `nil` when it keeps at least one vector and each criterion matches a loaded one.
  ///
  /// - Parameters:
  ///   - filter: the id globs, tags, levels and flags given.
  ///   - shard: the shard given, if any.
  ///   - loaded: every loaded vector, before selection.
  ///   - selected: what the filter and shard keep.
  package static func check(
    filter: VectorFilter, shard: VectorShard?, loaded: VectorCatalog, selected: VectorCatalog
  ) -> EmptySelection? {
    let vectors = loaded.vectors.map(\.vector)
    let none = "none of the \(vectors.count) loaded vectors"
    var unmatched: [String] = []
    var hints: [String] = []
    for pattern in filter.idPatterns where !vectors.contains(where: { VectorFilter.glob(pattern, matches: $0.id) }) {
      unmatched.append("--filter \(ShellWord.quoted(pattern))")
    }
    let tags = Array(Set(vectors.flatMap(\.tags))).sorted()
    for tag in filter.tags where !vectors.contains(where: { $0.tags.contains(tag) }) {
      unmatched.append("--tag \(ShellWord.quoted(tag))")
      if let near = Spelling.closest(to: tag, in: tags, maxEdits: 3) { hints.append("--tag \(ShellWord.quoted(near))") }
    }
    for level in filter.levels where !vectors.contains(where: { $0.level == level }) {
      unmatched.append("--level \(level.rawValue)")
    }
    for flag in filter.flags where !vectors.contains(where: { $0.flags.contains(flag) }) {
      unmatched.append("--flag \(ShellWord.quoted(flag))")
    }
    if !unmatched.isEmpty {
      return EmptySelection(
        options: unmatched,
        description: "\(unmatched.joined(separator: ", ")) \(unmatched.count == 1 ? "matches" : "match") \(none); "
          + (hints.isEmpty ? "check the spelling against --list." : "did you mean \(hints.joined(separator: ", "))?"))
    }
    guard selected.vectors.isEmpty, selected.problems.isEmpty else { return nil }
    let criteria =
      filter.idPatterns.map { "--filter \(ShellWord.quoted($0))" } + filter.tags.map { "--tag \(ShellWord.quoted($0))" }
      + filter.levels.map { "--level \($0.rawValue)" } + filter.flags.map { "--flag \(ShellWord.quoted($0))" }
    if vectors.isEmpty {
      return EmptySelection(
        options: [],
        description: "no vector was loaded, so nothing would be tested; give --vectors or drop --no-bundled.")
    }
    if let shard, filter.apply(to: loaded).vectors.count > 0 {
      let option = "--shard \(shard.index)/\(shard.count)"
      return EmptySelection(
        options: criteria + [option],
        description: "\(option) holds none of the \(filter.apply(to: loaded).vectors.count) selected vectors; "
          + "use fewer shards.")
    }
    return EmptySelection(
      options: criteria,
      description: "the selection \(criteria.joined(separator: " ")) matches \(none) (each option matches some, but "
        + "not together); loosen it, checking against --list.")
  }
}
