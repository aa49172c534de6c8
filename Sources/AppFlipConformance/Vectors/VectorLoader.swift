import AppFlip
import AppFlipVectors
import Foundation

/// Reads vector files strictly: unknown fields, wrong types, missing expectations and duplicate ids are refused with the file, vector id and field.
///
/// A partner's `rules.json` and `flags.json` (`VectorDefinitions`) found among the files, or next to a file given on
/// its own, define the partner's own rule ids and flags for every vector loaded with them.
public enum VectorLoader {
  /// The folder of vector files bundled with the package, usable from any target that depends on it.
  package static var bundledDirectory: URL { BundledVectors.corpus }

  /// Loads the bundled vectors an adapter of a profile runs (`VectorFile.Profile.runs`), shown as
  /// `Vectors/corpus/NAME.json` (app), `Vectors/endpoint/NAME.json`, `Vectors/token/NAME.json` or
  /// `Vectors/association/NAME.json`.
  public static func loadBundled(_ profile: VectorFile.Profile = .app) -> VectorCatalog {
    let (urls, shown) = bundled(profile)
    return load(urls, displayPaths: shown)
  }

  /// The bundled folders of a profile's vectors, and the paths they are shown as.
  package static func bundled(_ profile: VectorFile.Profile) -> ([URL], [String]) {
    switch profile {
    case .app: ([bundledDirectory], ["Vectors/corpus"])
    case .endpoint: ([BundledVectors.endpoint], ["Vectors/endpoint"])
    case .token: ([BundledVectors.endpoint, BundledVectors.token], ["Vectors/endpoint", "Vectors/token"])
    case .association: ([BundledVectors.association, bundledDirectory], ["Vectors/association", "Vectors/corpus"])
    }
  }

  /// Whether the run was asked to stop (a signal), looked at between files and between the vectors of a file.
  package typealias Stop = @Sendable () -> Bool

  /// Loads every `.json` file under these files or folders (recursively, in name order) into one catalog.
  public static func load(_ urls: [URL]) -> VectorCatalog {
    load(urls, displayPaths: urls.map(\.path))
  }

  /// Loads one file, or every `.json` file under one folder, showing paths under `displayPath`.
  public static func load(_ url: URL, displayPath: String) -> VectorCatalog {
    load([url], displayPaths: [displayPath])
  }

  /// Loads these files or folders, each shown under its display path, merging once (linear in the vectors): first
  /// the partner definitions among them (and next to a file given on its own), then every vector file against them.
  ///
  /// Once `stop` holds (a signal), no further file is read and the one being decoded stops at its next vector: those
  /// files are `notLoaded`, so a signal ends even the load of 100 000 vectors at once.
  package static func load(_ urls: [URL], displayPaths: [String], stop: Stop? = nil) -> VectorCatalog {
    let parts = Locked<[VectorCatalog]>([])
    load(urls, displayPaths: displayPaths, stop: stop) { part in parts.withLock { $0.append(part) } }
    return VectorCatalog.combined(parts.withLock { $0 })
  }

  /// Loads these files or folders as `load(_:displayPaths:stop:)` does, handing `each` the catalog's parts in order
  /// as soon as each is loaded (the partner definitions and their problems first, then each vector file or listing
  /// problem), one at a time: the files decode on every core, and a run starts on the first while the others load.
  /// Beside a run of `besideJobs` workers (the command's streamed load), the threads beyond the cores it leaves free
  /// give way to it on a busy core.
  package static func load(
    _ urls: [URL], displayPaths: [String], stop: Stop? = nil, besideJobs: Int? = nil,
    each: @escaping @Sendable (VectorCatalog) -> Void
  ) {
    // Each vector file to decode, or the problem of a path that lists none.
    var items: [Result<(URL, String), VectorError>] = []
    var definitionFiles: [(URL, String)] = []
    for (url, shown) in zip(urls, displayPaths) {
      switch list(url, displayPath: shown) {
      case .failure(let problem):
        items.append(.failure(problem))
      case .success(let listing):
        items += listing.vectorFiles.map { .success($0) }
        definitionFiles += listing.definitionFiles
      }
    }
    let (definitions, definitionProblems) = loadDefinitions(definitionFiles)
    each(VectorCatalog(problems: definitionProblems, definitions: definitions))
    inParallel(items.count, besideJobs: besideJobs, each: each) { [items] index in
      switch items[index] {
      case .failure(let problem): VectorCatalog(problems: [problem])
      case .success(let (file, shown)): loadFile(file, displayPath: shown, definitions: definitions, stop: stop)
      }
    }
  }

  /// Makes `count` parts on every core, handing each to `each` in order as soon as it and those before it are made;
  /// beside a run of `besideJobs` workers, on threads that give way to it (`LoadingThreads`).
  static func inParallel(
    _ count: Int, besideJobs: Int?, each: @escaping @Sendable (VectorCatalog) -> Void,
    _ make: @escaping @Sendable (Int) -> VectorCatalog
  ) {
    let made = Locked<(parts: [Int: VectorCatalog], next: Int, taken: Int)>(([:], 0, 0))
    @Sendable func take() -> Int? {
      made.withLock { state in
        guard state.taken < count else { return nil }
        state.taken += 1
        return state.taken - 1
      }
    }
    LoadingThreads.run(min(count, ProcessInfo.processInfo.activeProcessorCount), besideJobs: besideJobs) {
      while let index = take() {
        let part = make(index)
        made.withLock {
          $0.parts[index] = part
          while let next = $0.parts.removeValue(forKey: $0.next) {
            each(next)
            $0.next += 1
          }
        }
      }
    }
  }

  /// Loads one vector file, checking its rule ids and flags against the bundled ones and `definitions`.
  static func loadFile(
    _ url: URL, displayPath: String, definitions: VectorDefinitions, stop: Stop? = nil
  ) -> VectorCatalog {
    if stop?() == true { return VectorCatalog(notLoaded: [displayPath]) }
    let data: Data
    do {
      data = try InputFile.read(url.path, as: .vectors)
    } catch {
      return VectorCatalog(problems: [.unreadable(file: displayPath, reason: error.reason)])
    }
    return decode(data, displayPath: displayPath, definitions: definitions, stop: stop)
  }

  /// The most problems of one file listed one by one; the vectors past them are counted in one problem, so 100 000
  /// broken vectors make a report of a hundred, not of 100 000 copies of one mistake.
  package static let problemsListed = 100

  /// Decodes the bytes of one vector file; rule ids and flags must be bundled ones or defined in `definitions`.
  package static func decode(
    _ data: Data, displayPath file: String, definitions: VectorDefinitions = VectorDefinitions(),
    stop: Stop? = nil
  ) -> VectorCatalog {
    if let problem = syntaxProblem(in: data, file: file) { return VectorCatalog(problems: [problem]) }
    let tree = LazyTree(data)
    let envelope: Envelope
    do {
      let decoder = JSONDecoder()
      if let stop { decoder.userInfo[Attempt.stop] = stop }
      envelope = try decoder.decode(Envelope.self, from: data)
    } catch is Attempt.Stopped {
      return VectorCatalog(notLoaded: [file])
    } catch {
      return VectorCatalog(problems: [problem(for: error, file: file, vectorID: nil, tree: tree)])
    }
    guard envelope.schemaVersion == VectorFile.currentSchemaVersion else {
      return VectorCatalog(problems: [.unsupportedSchemaVersion(file: file, version: envelope.schemaVersion)])
    }
    var vectors: [LoadedVector] = []
    var problems: [VectorError] = []
    var unlisted = 0
    for (index, attempt) in envelope.vectors.enumerated() {
      if index % 1_024 == 0, stop?() == true { return VectorCatalog(notLoaded: [file]) }
      switch attempt.result {
      case .failure where problems.count >= problemsListed:
        unlisted += 1
      case .failure(let error):
        problems.append(problem(for: error, file: file, vectorID: attempt.id, tree: tree))
      case .success(let vector):
        let found = VectorValidator.problems(
          in: vector, profile: envelope.profile, file: file, path: "vectors[\(index)]", definitions: definitions)
        if found.isEmpty {
          vectors.append(
            LoadedVector(
              vector: vector, file: file, area: envelope.area, profile: envelope.profile,
              partnerRule: definitions.assertedRule(citedBy: vector.rules)))
        } else if problems.count >= problemsListed {
          unlisted += 1
        } else {
          problems += found
        }
      }
    }
    if unlisted > 0 { problems.append(.moreInvalidVectors(file: file, count: unlisted)) }
    return VectorCatalog.combined([VectorCatalog(problems: problems), VectorCatalog(vectors: vectors)])
  }

  /// Reads a strict JSON file of any of the suite's formats (configuration, waivers, definitions), naming the file
  /// (as `displayPath`, else its path) and field on error.
  static func decodeFile<T: Decodable>(
    _ type: T.Type, at url: URL, displayPath: String? = nil, as kind: InputFile.Kind
  ) throws(VectorError) -> T {
    let displayPath = displayPath ?? url.path
    let data: Data
    do {
      data = try InputFile.read(url.path, as: kind)
    } catch {
      throw .unreadable(file: displayPath, reason: error.reason)
    }
    if let problem = syntaxProblem(in: data, file: displayPath) { throw problem }
    do {
      return try JSONDecoder().decode(T.self, from: data)
    } catch {
      throw problem(for: error, file: displayPath, vectorID: nil, tree: LazyTree(data))
    }
  }

  /// The strict scan's verdict on a file's bytes (syntax with line and column, duplicate keys, trailing commas,
  /// nesting), as a problem naming the file.
  static func syntaxProblem(in data: Data, file: String) -> VectorError? {
    guard let error = JSONSyntax.problem(in: data) else { return nil }
    if let field = error.duplicateField {
      return .duplicateKey(file: file, field: field, line: error.line, column: error.column)
    }
    return .invalidJSON(file: file, line: error.line, column: error.column, reason: error.reason)
  }
}

extension VectorLoader {
  /// The files one path given to the loader stands for: its vector files, and the partner definition files among
  /// them or next to it, each with the path shown in messages.
  struct Listing {
    var vectorFiles: [(URL, String)] = []
    var definitionFiles: [(URL, String)] = []
  }

  /// One vector's decoding, kept as a result, with its id read leniently for messages.
  struct Attempt: Decodable {
    var id: String?
    var result: Result<Vector, any Error>

    /// The `userInfo` key of the run's `Stop`, which ends the decoding at the next vector once it holds.
    static let stop = CodingUserInfoKey(rawValue: "appflip.stop")!

    /// Thrown to stop decoding a file because the run was asked to stop.
    struct Stopped: Error {}

    init(from decoder: any Decoder) throws {
      if (decoder.userInfo[Self.stop] as? Stop)?() == true { throw Stopped() }
      id = try? decoder.container(keyedBy: AnyCodingKey.self).decode(
        String.self, forKey: AnyCodingKey(stringValue: "id"))
      result = Result { try Vector(from: decoder) }
    }
  }

  /// A vector file's envelope, decoding each vector on its own so one bad vector does not hide the rest.
  struct Envelope: Decodable {
    var schemaVersion: Int
    var profile: VectorFile.Profile
    var area: String
    var description: String
    var vectors: [Attempt]

    enum CodingKeys: String, CodingKey, CaseIterable {
      case schemaVersion, profile, area, description, vectors
    }

    init(from decoder: any Decoder) throws {
      let container = try decoder.strictContainer(keyedBy: CodingKeys.self)
      schemaVersion = try container.decode(Int.self, forKey: .schemaVersion)
      profile = try container.decodeIfPresent(VectorFile.Profile.self, forKey: .profile) ?? .app
      area = try container.decode(String.self, forKey: .area)
      description = try container.decode(String.self, forKey: .description)
      vectors = try container.decode([Attempt].self, forKey: .vectors)
    }
  }

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
