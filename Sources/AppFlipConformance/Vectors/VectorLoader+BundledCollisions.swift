extension VectorLoader {
  /// The vectors of a catalog whose ids a bundled vector (app, endpoint or token) already has, each as a duplicate id naming
  /// the bundled file; reported by `--validate` even with `--no-bundled`, since the ids would collide as soon as the
  /// bundled vectors are added back. A bundled vector itself, read from the bundled file under another path (the
  /// repository's `Vectors/corpus`), is no collision.
  package static func bundledCollisions(in catalog: VectorCatalog) -> [VectorError] {
    let bundled = VectorCatalog.combined([loadBundled(.app), loadBundled(.token)])
    let byID = Dictionary(bundled.vectors.map { ($0.vector.id, $0) }, uniquingKeysWith: { first, _ in first })
    return catalog.vectors.compactMap { loaded in
      guard let original = byID[loaded.vector.id] else { return nil }
      let sameFile = loaded.file == original.file || loaded.file.hasSuffix("/" + original.file)
      if sameFile && loaded.vector == original.vector { return nil }
      return .duplicateID(file: loaded.file, vectorID: loaded.vector.id, firstFile: original.file)
    }
  }
}
