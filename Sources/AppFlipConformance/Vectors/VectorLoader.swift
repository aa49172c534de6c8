import AppFlip
import AppFlipVectors
import Foundation

/// Reads vector files strictly: unknown fields, wrong types, missing expectations and duplicate ids are refused with the file, vector id and field.
public enum VectorLoader {
  /// The folder of vector files bundled with the package, usable from any target that depends on it.
  package static var bundledDirectory: URL { BundledVectors.corpus }

  /// Loads the bundled vectors of a profile, shown as `Vectors/corpus/NAME.json` (app) or `Vectors/endpoint/NAME.json`.
  public static func loadBundled(_ profile: VectorFile.Profile = .app) -> VectorCatalog {
    switch profile {
    case .app: load(bundledDirectory, displayPath: "Vectors/corpus")
    case .endpoint: load(BundledVectors.endpoint, displayPath: "Vectors/endpoint")
    }
  }

  /// Loads every `.json` file under these files or folders (recursively, in name order) into one catalog.
  public static func load(_ urls: [URL]) -> VectorCatalog {
    load(urls, displayPaths: urls.map(\.path))
  }

  /// Loads these files or folders, each shown under its display path, merging once (linear in the vectors).
  static func load(_ urls: [URL], displayPaths: [String]) -> VectorCatalog {
    VectorCatalog.combined(inParallel(Array(zip(urls, displayPaths))) { load($0, displayPath: $1) })
  }

  /// Loads files on every core, keeping their order; each file is decoded on its own.
  static func inParallel(_ items: [(URL, String)], _ load: @Sendable (URL, String) -> VectorCatalog) -> [VectorCatalog]
  {
    guard items.count > 1 else { return items.map(load) }
    let slots = ResultSlots(count: items.count)
    DispatchQueue.concurrentPerform(iterations: items.count) { index in
      slots.set(index, load(items[index].0, items[index].1))
    }
    return slots.values
  }

  /// The catalogs of files loaded concurrently, each in its own slot.
  private final class ResultSlots: @unchecked Sendable {
    private let lock = NSLock()
    private var slots: [VectorCatalog]

    init(count: Int) { slots = Array(repeating: VectorCatalog(), count: count) }

    func set(_ index: Int, _ catalog: VectorCatalog) { lock.withLock { slots[index] = catalog } }

    var values: [VectorCatalog] { lock.withLock { slots } }
  }

  /// Loads one file, or every `.json` file under one folder, showing paths under `displayPath`.
  public static func load(_ url: URL, displayPath: String) -> VectorCatalog {
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
      return VectorCatalog(problems: [.unreadable(file: displayPath, reason: "no such file or folder")])
    }
    guard isDirectory.boolValue else {
      return loadFile(url, displayPath: displayPath)
    }
    let files = (FileManager.default.enumerator(at: url, includingPropertiesForKeys: nil)?.allObjects ?? [])
      .compactMap { $0 as? URL }
      .filter { $0.pathExtension == "json" }
      .map { ($0, String($0.standardizedFileURL.path.dropFirst(url.standardizedFileURL.path.count))) }
      .sorted { $0.1 < $1.1 }
    if files.isEmpty {
      return VectorCatalog(problems: [.unreadable(file: displayPath, reason: "the folder holds no .json vector files")])
    }
    return VectorCatalog.combined(
      inParallel(files.map { ($0.0, displayPath + $0.1) }) { file, shown in loadFile(file, displayPath: shown) })
  }

  /// Loads one vector file.
  package static func loadFile(_ url: URL, displayPath: String) -> VectorCatalog {
    let data: Data
    do {
      data = try InputFile.read(url.path)
    } catch {
      return VectorCatalog(problems: [.unreadable(file: displayPath, reason: error.reason)])
    }
    return decode(data, displayPath: displayPath)
  }

  /// Decodes the bytes of one vector file.
  package static func decode(_ data: Data, displayPath file: String) -> VectorCatalog {
    if let problem = syntaxProblem(in: data, file: file) { return VectorCatalog(problems: [problem]) }
    let tree = LazyTree(data)
    let envelope: Envelope
    do {
      envelope = try JSONDecoder().decode(Envelope.self, from: data)
    } catch {
      return VectorCatalog(problems: [problem(for: error, file: file, vectorID: nil, tree: tree.value)])
    }
    guard envelope.schemaVersion == VectorFile.currentSchemaVersion else {
      return VectorCatalog(problems: [.unsupportedSchemaVersion(file: file, version: envelope.schemaVersion)])
    }
    var vectors: [LoadedVector] = []
    var problems: [VectorError] = []
    for (index, attempt) in envelope.vectors.enumerated() {
      switch attempt.result {
      case .failure(let error):
        problems.append(problem(for: error, file: file, vectorID: attempt.id, tree: tree.value))
      case .success(let vector):
        let found = VectorValidator.problems(
          in: vector, profile: envelope.profile, file: file, path: "vectors[\(index)]")
        if found.isEmpty {
          vectors.append(LoadedVector(vector: vector, file: file, area: envelope.area, profile: envelope.profile))
        } else {
          problems += found
        }
      }
    }
    return VectorCatalog.combined([VectorCatalog(problems: problems), VectorCatalog(vectors: vectors)])
  }

  /// The file envelope, decoding each vector on its own so one bad vector does not hide the rest.
  private struct Envelope: Decodable {
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

  /// One vector's decoding, kept as a result, with its id read leniently for messages.
  private struct Attempt: Decodable {
    var id: String?
    var result: Result<Vector, any Error>

    init(from decoder: any Decoder) throws {
      id = try? decoder.container(keyedBy: AnyCodingKey.self).decode(
        String.self, forKey: AnyCodingKey(stringValue: "id"))
      result = Result { try Vector(from: decoder) }
    }
  }

  /// Reads a strict JSON file of any of the suite's formats (configuration, waivers), naming the file and field on error.
  static func decodeFile<T: Decodable>(_ type: T.Type, at url: URL) throws(VectorError) -> T {
    let data: Data
    do {
      data = try InputFile.read(url.path)
    } catch {
      throw .unreadable(file: url.path, reason: error.reason)
    }
    if let problem = syntaxProblem(in: data, file: url.path) { throw problem }
    do {
      return try JSONDecoder().decode(T.self, from: data)
    } catch {
      throw problem(for: error, file: url.path, vectorID: nil, tree: LazyTree(data).value)
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

  /// The parsed tree of a file, built only when a message needs a value from it.
  private final class LazyTree {
    private let data: Data
    private var parsed: Any?

    init(_ data: Data) { self.data = data }

    var value: Any {
      if let parsed { return parsed }
      let tree = (try? JSONSerialization.jsonObject(with: data)) ?? [String: Any]()
      parsed = tree
      return tree
    }
  }

  /// Turns a decoding error into a problem naming the file, vector and field, quoting the bad value.
  static func problem(for error: any Error, file: String, vectorID: String?, tree: Any) -> VectorError {
    switch error {
    case let error as UnknownFieldError:
      return .unknownField(file: file, vectorID: vectorID, field: error.codingPath.fieldPath, known: error.known)
    case DecodingError.keyNotFound(let key, let context):
      return .missingField(file: file, vectorID: vectorID, field: (context.codingPath + [key]).fieldPath)
    case DecodingError.valueNotFound(let type, let context), DecodingError.typeMismatch(let type, let context):
      let found = value(at: context.codingPath, in: tree)
      let shown = found.map(json) ?? "null"
      let field = context.codingPath.fieldPath
      if let number = found as? NSNumber, !(found is Bool), type is Int.Type {
        return .invalidValue(
          file: file, vectorID: vectorID, field: field, value: shown,
          reason:
            "\(field.split(separator: ".").last ?? "it") must be a whole number\(number.doubleValue.rounded() == number.doubleValue ? " small enough for 64 bits" : ", not a fraction")"
        )
      }
      return .wrongType(file: file, vectorID: vectorID, field: field, value: shown, expected: describe(type))
    case DecodingError.dataCorrupted(let context)
    where context.codingPath.isEmpty && context.debugDescription.contains("not valid JSON"):
      // The strict scan passed, so the decoder refused a number: a fraction or one too large where a whole number
      // belongs. Name the first such field rather than the whole file.
      guard let (path, number) = firstInexactNumber(in: tree, path: "") else {
        return .invalidFile(file: file, reason: "a number cannot be read")
      }
      let name = path.split(separator: ".").last.map(String.init) ?? path
      let fraction = number.rounded() != number
      return .invalidValue(
        file: file, vectorID: vectorID, field: path, value: json(number as Any),
        reason: "\(name) must be a whole number\(fraction ? ", not a fraction" : " small enough for 64 bits")")
    case DecodingError.dataCorrupted(let context):
      let found = value(at: context.codingPath, in: tree)
      let field = context.codingPath.fieldPath
      let name = context.codingPath.last?.stringValue ?? "the value"
      if let allowed = allowedValues(context.debugDescription) {
        return .notAllowed(
          file: file, vectorID: vectorID, field: field, value: found.map(render) ?? "",
          reason: "\(name) must be one of \(allowed.joined(separator: ", "))")
      }
      if context.debugDescription.contains("not representable") || context.debugDescription.contains("Number") {
        return .invalidValue(
          file: file, vectorID: vectorID, field: field, value: found.map(json) ?? "",
          reason: "\(name) must be a whole number small enough for 64 bits")
      }
      return .invalidValue(
        file: file, vectorID: vectorID, field: field, value: found.map(render) ?? "",
        reason: context.debugDescription)
    default:
      return .invalidFile(file: file, reason: "it cannot be read as this format")
    }
  }

  /// The values a closed set allows, when Foundation's message says a raw value is not one of them
  /// ("Cannot initialize Level from invalid String value MUST").
  static func allowedValues(_ message: String) -> [String]? {
    guard message.hasPrefix("Cannot initialize ") else { return nil }
    let name = message.dropFirst("Cannot initialize ".count).prefix { $0 != " " }
    let sets: [String: [String]] = [
      "Level": Level.allCases.map(\.rawValue), "Verdict": Verdict.allCases.map(\.rawValue),
      "AppFlipErrorCode": AppFlipErrorCode.allCases.map(\.rawValue), "Status": Status.allCases.map(\.rawValue),
      "Profile": VectorFile.Profile.allCases.map(\.rawValue), "Result": Vector.Outcome.Result.allCases.map(\.rawValue),
    ]
    return sets[String(name)]
  }

  private static func describe(_ type: Any.Type) -> String {
    switch type {
    case is String.Type: "a string"
    case is Int.Type: "an integer"
    case is Double.Type: "a number"
    case is Bool.Type: "true or false"
    case is [String].Type: "an array of strings"
    case is [Any].Type: "an array"
    case is [String: Any].Type: "an object"
    default: "a JSON value of the documented kind"
    }
  }

  /// The path and value of the first number (in key order) that is not a whole number within 64 bits.
  static func firstInexactNumber(in tree: Any, path: String) -> (String, Double)? {
    switch tree {
    case let object as [String: Any]:
      for key in object.keys.sorted() {
        if let found = firstInexactNumber(in: object[key]!, path: path.isEmpty ? key : "\(path).\(key)") {
          return found
        }
      }
    case let array as [Any]:
      for (index, element) in array.enumerated() {
        if let found = firstInexactNumber(in: element, path: "\(path)[\(index)]") { return found }
      }
    case let number as NSNumber where !(tree is Bool) && !(tree is String):
      let value = number.doubleValue
      if value.rounded() != value || abs(value) >= 9.2e18 { return (path, value) }
    default:
      break
    }
    return nil
  }

  private static func value(at path: [any CodingKey], in tree: Any) -> Any? {
    var node: Any? = tree
    for key in path {
      if let index = key.intValue {
        guard let array = node as? [Any], array.indices.contains(index) else { return nil }
        node = array[index]
      } else {
        node = (node as? [String: Any])?[key.stringValue]
      }
    }
    return node
  }

  private static func render(_ value: Any) -> String {
    if let string = value as? String { return Quoted.cut(string, limit: Quoted.limit) }
    return json(value)
  }

  private static func json(_ value: Any) -> String {
    if value is NSNull { return "null" }
    if let data = try? JSONSerialization.data(withJSONObject: value, options: [.fragmentsAllowed, .sortedKeys]) {
      return Quoted.cut(String(decoding: data, as: UTF8.self), limit: Quoted.limit)
    }
    return "a value"
  }
}
