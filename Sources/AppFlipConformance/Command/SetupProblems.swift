import Foundation

/// The configuration and waiver files a run reads before its vectors: a bad one becomes one error case naming the
/// file, every vector is then reported as not run, and every report is still written (never an older green one left).
struct SetupProblems: Sendable {
  /// One error result per file that could not be used.
  private(set) var results: [VectorResult] = []

  /// The sentences to print, one per bad file.
  var problems: [String] { results.map { ConsoleText.safe($0.message) } }

  /// Why the vectors are not run, when a file is bad.
  var stopReason: StopReason? {
    guard !results.isEmpty else { return nil }
    let files = results.map { "the \($0.area.replacingOccurrences(of: "-", with: " ")) \(Quoted.string($0.file))" }
      .joined(separator: " and ")
    return .unusableInput("\(files) cannot be used; fix it and run again")
  }

  /// Notes a problem of the file at `path` found after it loaded (a field the run needs and the file lacks).
  mutating func add(_ origin: VectorResult.Origin, _ path: String, _ message: String) {
    results.append(VectorResult(id: path, origin: origin, file: path, message: message))
  }

  /// Loads the file at `path` (if one is given) with `load`, keeping its error as a result of that origin
  /// (`configurationFile`, `waiverFile`).
  mutating func load<T>(_ origin: VectorResult.Origin, _ path: String?, _ load: (URL) throws -> T) -> T? {
    guard let path else { return nil }
    do {
      return try load(URL(fileURLWithPath: path))
    } catch {
      add(origin, path, "\(error)")
      return nil
    }
  }
}
