import Foundation

/// A partner's vectors checked before they run (`appflip-conformance lint`): what every corpus passes (`VectorLint`,
/// against the partner's `rules.json` and `flags.json`), no id a bundled vector has, and no vector that sends the
/// same links as another of the partner's or a bundled one; nothing that only the bundled corpus must hold (a flag on
/// every vector, three vectors per rule, the id manifest).
package struct PartnerLint: Sendable {
  /// The partner's vectors and loading problems.
  package var catalog: VectorCatalog

  /// Loads the partner's files or folders, each shown as given.
  package init(paths: [String]) {
    catalog = VectorLoader.load(paths.map { URL(fileURLWithPath: $0) }, displayPaths: paths.map(ConsoleText.line))
  }

  /// Every problem, one sentence each naming the file, the vector and the field, and what to do.
  package var problems: [String] {
    let bundled = VectorCatalog.combined([VectorLoader.loadBundled(.app), VectorLoader.loadBundled(.endpoint)])
    let lint = VectorLint(catalog: catalog)
    let collisions = VectorLoader.bundledCollisions(in: catalog).filter { !catalog.problems.contains($0) }
    // A vector that reuses a bundled id is named once, for its id.
    let colliding = Set(collisions.compactMap(\.vectorID))
    var unique = lint
    unique.catalog.vectors.removeAll { colliding.contains($0.vector.id) }
    return lint.problems + collisions.map(\.description) + unique.duplicates(among: bundled.vectors)
  }

  /// The closing line: how many vectors, rules and flags of the partner's were read, and how many problems.
  package func summary(problems: Int) -> String {
    let definitions = catalog.definitions
    return "\(Count.of(catalog.vectors.count, "vector")), \(Count.of(definitions.rules.count, "rule")) and "
      + "\(Count.of(definitions.flags.count, "flag")) of your own: " + Count.of(problems, "problem")
  }
}
