/// The vectors loaded from a set of files, and every problem found on the way; a bad vector never hides the others.
public struct VectorCatalog: Sendable, Hashable {
  /// The usable vectors, in file order then vector order.
  public var vectors: [LoadedVector]
  /// The files and vectors that could not be used.
  public var problems: [VectorError]
  /// The partner rules and flags loaded with the vectors (`rules.json`, `flags.json` next to them).
  package var definitions: VectorDefinitions
  /// The files (as shown) left unread or half-decoded because the run was asked to stop while they loaded.
  package var notLoaded: [String] = []

  /// Creates a catalog.
  package init(
    vectors: [LoadedVector] = [], problems: [VectorError] = [], definitions: VectorDefinitions = VectorDefinitions(),
    notLoaded: [String] = []
  ) {
    self.vectors = vectors
    self.problems = problems
    self.definitions = definitions
    self.notLoaded = notLoaded
  }

  /// Adds another catalog's vectors and problems, refusing ids already present.
  public mutating func merge(_ other: VectorCatalog) {
    self = .combined([self, other])
  }

  /// These catalogs merged in order, building the id index once (linear in the vectors, however many files).
  package static func combined(_ parts: [VectorCatalog]) -> VectorCatalog {
    var seen: [String: String] = [:]
    var combined = VectorCatalog()
    combined.vectors.reserveCapacity(parts.reduce(0) { $0 + $1.vectors.count })
    for part in parts { combined.append(part, seen: &seen) }
    return combined
  }

  /// Adds the next part as `combined` does, given the first file of each id so far (`seen`, kept between parts): its
  /// vectors with new ids, a duplicate-id problem for each other; returns the vectors added.
  @discardableResult
  package mutating func append(_ part: VectorCatalog, seen: inout [String: String]) -> [LoadedVector] {
    problems += part.problems
    notLoaded += part.notLoaded
    definitions.merge(part.definitions)
    let first = vectors.count
    for loaded in part.vectors {
      if let firstFile = seen[loaded.vector.id] {
        problems.append(.duplicateID(file: loaded.file, vectorID: loaded.vector.id, firstFile: firstFile))
      } else {
        seen[loaded.vector.id] = loaded.file
        vectors.append(loaded)
      }
    }
    return Array(vectors[first...])
  }

  /// The problems grouped by file and vector, in order of first appearance: one group per unusable vector or file.
  package static func group(_ problems: [VectorError]) -> [[VectorError]] {
    var order: [String] = []
    var grouped: [String: [VectorError]] = [:]
    for problem in problems {
      let key = problem.file + "\u{0}" + (problem.vectorID ?? "")
      if grouped[key] == nil { order.append(key) }
      grouped[key, default: []].append(problem)
    }
    return order.map { grouped[$0]! }
  }
}
