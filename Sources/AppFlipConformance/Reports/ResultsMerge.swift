import Foundation

/// Merges the JSON results of a run's shards (`--shard i/n --json FILE`) into the results of the unsharded run: each
/// result back at its place in it (`RunSelection.Shard.positions`), so the reports written from the merge are those
/// one unsharded run writes, times aside.
package enum ResultsMerge {
  /// Why shards cannot be merged.
  package enum MergeError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A file cannot be read as JSON results.
    case unreadable(file: String, reason: String)
    /// A file holds the results of a whole run, or was written by the Swift Testing harness, not one shard.
    case notAShard(file: String)
    /// Two files are of different runs: another suite, selection, implementation or configuration.
    case otherRun(file: String, field: String, value: String, otherFile: String, otherValue: String)
    /// Two files are the same shard.
    case sameShard(file: String, otherFile: String, shard: String)
    /// A shard is missing.
    case missingShard(shard: String)

    /// One sentence that quotes the bad input and says what to do.
    package var description: String {
      switch self {
      case .unreadable(let file, let reason):
        "\(Quoted.string(file)): cannot be read as JSON results (\(reason)); pass the --json file of each shard."
      case .notAShard(let file):
        "\(Quoted.string(file)): holds no shard (its run had no --shard i/n); merge the --json files of the runs "
          + "with --shard 1/n … n/n."
      case .otherRun(let file, let field, let value, let otherFile, let otherValue):
        "\(Quoted.string(file)): \(field) is \(Quoted.string(value)), but \(Quoted.string(otherValue)) in "
          + "\(Quoted.string(otherFile)); merge the shards of one run, run with the same version, vectors and options."
      case .sameShard(let file, let otherFile, let shard):
        "\(Quoted.string(file)) and \(Quoted.string(otherFile)) are both shard \(shard); merge each shard once."
      case .missingShard(let shard):
        "shard \(shard) is missing; merge the --json file of every shard 1/n … n/n."
      }
    }
  }

  /// The document of the unsharded run the shards' JSON results in these files make up; every file is read first.
  package static func merge(_ files: [String]) throws(MergeError) -> JSONResultsReport.Document {
    var documents: [(file: String, document: JSONResultsReport.Document)] = []
    for file in files {
      do {
        documents.append((file, try JSONResultsReport.read(from: URL(fileURLWithPath: file))))
      } catch let error as InputFile.ReadError {
        throw .unreadable(file: file, reason: error.reason)
      } catch {
        throw .unreadable(file: file, reason: reason(error))
      }
    }
    guard let (firstFile, first) = documents.first else { throw .missingShard(shard: "1/1") }
    guard let shard = first.selection?.shard else { throw .notAShard(file: firstFile) }
    var seen: [Int: String] = [:]
    var slots = [VectorResult?](repeating: nil, count: shard.of)
    for (file, document) in documents {
      guard let selection = document.selection, let part = selection.shard else { throw .notAShard(file: file) }
      func same(_ field: String, _ value: String, _ expected: String) throws(MergeError) {
        guard value == expected else {
          throw .otherRun(file: file, field: field, value: value, otherFile: firstFile, otherValue: expected)
        }
      }
      try same("the suite", described(document.suite), described(first.suite))
      try same("the vectors' digest", selection.digest, first.selection?.digest ?? "")
      try same(
        "the shard count", "\(part.count) shards of \(part.of) results", "\(shard.count) shards of \(shard.of) results")
      try same("the implementation", document.implementation.name, first.implementation.name)
      try same("the configuration", encoded(document.configuration), encoded(first.configuration))
      try same("--strict", String(document.strict), String(first.strict))
      if let other = seen[part.index] {
        throw .sameShard(file: file, otherFile: other, shard: "\(part.index)/\(part.count)")
      }
      seen[part.index] = file
      for (result, position) in zip(document.results, part.positions) where slots.indices.contains(position) {
        // The setup's results are in every shard: the first is kept.
        if slots[position] == nil { slots[position] = result }
      }
    }
    if let missing = (1...shard.count).first(where: { seen[$0] == nil }) {
      throw .missingShard(shard: "\(missing)/\(shard.count)")
    }
    let results = slots.compactMap { $0 }
    var merged = JSONResultsReport.Document(
      results: results, implementation: first.implementation, configuration: first.configuration,
      startedAt: documents.map(\.document.startedAt).min() ?? first.startedAt,
      duration: documents.map(\.document.duration).max(),
      stopReason: documents.lazy.compactMap(\.document.interrupted).first?.reason,
      selection: RunSelection(count: first.selection?.count ?? 0, digest: first.selection?.digest ?? ""),
      strict: first.strict, flags: first.flags)
    merged.suite = first.suite
    return merged
  }

  /// Why a document did not decode, naming the field: `field "results[2].status": is missing`.
  private static func reason(_ error: any Error) -> String {
    let problem = DecodingProblem(error)
    let field = problem.path.map { $0.intValue.map { "[\($0)]" } ?? "." + $0.stringValue }.joined()
    let what: String
    switch problem {
    case .missing: what = "is missing"
    case .unknownField: what = "is not a field of the format"
    case .wrongType(_, let type):
      what = "is not \(DecodingProblem.kind(of: type))"
    case .corrupted(_, _, let detail): what = detail
    case .other: what = "it cannot be decoded"
    }
    return field.isEmpty
      ? (problem.path.isEmpty && what.contains("JSON") ? "it is not JSON" : what)
      : "field \(Quoted.string(String(field.drop { $0 == "." }))) \(what)"
  }

  private static func described(_ suite: JSONResultsReport.Document.Suite) -> String {
    "\(suite.name) \(suite.version) (commit \(suite.commit ?? "unknown"))"
  }

  private static func encoded(_ configuration: PartnerConfiguration) -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    return (try? encoder.encode(configuration)).map { String(decoding: $0, as: UTF8.self) } ?? ""
  }
}
