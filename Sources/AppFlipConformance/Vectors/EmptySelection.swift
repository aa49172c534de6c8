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
    // Read in place, and the tags gathered only for a hint: a run checks its selection as its last file loads.
    let vectors = loaded.vectors.lazy.map(\.vector)
    let none = "none of the \(vectors.count) loaded vectors"
    // Each option as typed, and whether it matches a loaded vector on its own.
    let options =
      filter.idPatterns.map { pattern in
        ("--filter \(ShellWord.quoted(pattern))", vectors.contains { VectorFilter.glob(pattern, matches: $0.id) })
      } + filter.tags.map { tag in ("--tag \(ShellWord.quoted(tag))", vectors.contains { $0.tags.contains(tag) }) }
      + filter.levels.map { level in ("--level \(level.rawValue)", vectors.contains { $0.level == level }) }
      + filter.flags.map { flag in ("--flag \(ShellWord.quoted(flag))", vectors.contains { $0.flags.contains(flag) }) }
    let unmatched = options.filter { !$0.1 }.map(\.0)
    if !unmatched.isEmpty {
      let tags = Array(Set(vectors.flatMap(\.tags))).sorted()
      let hints = filter.tags.filter { tag in !vectors.contains { $0.tags.contains(tag) } }
        .compactMap { Spelling.closest(to: $0, in: tags, maxEdits: 3) }.map { "--tag \(ShellWord.quoted($0))" }
      return EmptySelection(
        options: unmatched,
        description: "\(unmatched.joined(separator: ", ")) \(unmatched.count == 1 ? "matches" : "match") \(none); "
          + (hints.isEmpty ? "check the spelling against --list." : "did you mean \(hints.joined(separator: ", "))?"))
    }
    guard selected.vectors.isEmpty, selected.problems.isEmpty else { return nil }
    let criteria = options.map(\.0)
    if vectors.isEmpty {
      return EmptySelection(
        options: [],
        description: "no vector was loaded, so nothing would be tested; give --vectors or drop --no-bundled.")
    }
    let filtered = vectors.filter(filter.matches).count
    if let shard, filtered > 0 {
      let option = "--shard \(shard.index)/\(shard.count)"
      return EmptySelection(
        options: criteria + [option],
        description: "\(option) holds none of the \(filtered) selected vectors; "
          + "use fewer shards.")
    }
    return EmptySelection(
      options: criteria,
      description: "the selection \(criteria.joined(separator: " ")) matches \(none) (each option matches some, but "
        + "not together); loosen it, checking against --list.")
  }
}
