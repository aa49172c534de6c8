import AppFlipVectors
import Foundation

/// Reads vector files strictly: unknown fields, wrong types, missing expectations and duplicate ids are refused with the file, vector id and field.
public enum VectorLoader {
  /// The folder of vector files bundled with the package, usable from any target that depends on it.
  public static var bundledDirectory: URL { BundledVectors.corpus }

  /// Loads the bundled vectors of a profile, shown as `Vectors/corpus/NAME.json` (app) or `Vectors/endpoint/NAME.json`.
  public static func loadBundled(_ profile: VectorFile.Profile = .app) -> VectorCatalog {
    switch profile {
    case .app: load(bundledDirectory, displayPath: "Vectors/corpus")
    case .endpoint: load(BundledVectors.endpoint, displayPath: "Vectors/endpoint")
    }
  }

  /// Loads every `.json` file under these files or folders (recursively, in name order) into one catalog.
  public static func load(_ urls: [URL]) -> VectorCatalog {
    var catalog = VectorCatalog()
    for url in urls { catalog.merge(load(url, displayPath: url.path)) }
    return catalog
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
    var catalog = VectorCatalog()
    for (file, relative) in files {
      catalog.merge(loadFile(file, displayPath: displayPath + relative))
    }
    return catalog
  }

  /// Loads one vector file.
  public static func loadFile(_ url: URL, displayPath: String) -> VectorCatalog {
    let data: Data
    do {
      data = try Data(contentsOf: url)
    } catch {
      return VectorCatalog(problems: [.unreadable(file: displayPath, reason: error.localizedDescription)])
    }
    return decode(data, displayPath: displayPath)
  }

  /// Decodes the bytes of one vector file.
  public static func decode(_ data: Data, displayPath file: String) -> VectorCatalog {
    let tree: Any
    do {
      tree = try JSONSerialization.jsonObject(with: data)
    } catch {
      return VectorCatalog(problems: [.invalidFile(file: file, reason: "not valid JSON: \(error.localizedDescription)")]
      )
    }
    let envelope: Envelope
    do {
      envelope = try JSONDecoder().decode(Envelope.self, from: data)
    } catch {
      return VectorCatalog(problems: [problem(for: error, file: file, vectorID: nil, tree: tree)])
    }
    guard envelope.schemaVersion == VectorFile.currentSchemaVersion else {
      return VectorCatalog(problems: [.unsupportedSchemaVersion(file: file, version: envelope.schemaVersion)])
    }
    var catalog = VectorCatalog()
    for (index, attempt) in envelope.vectors.enumerated() {
      switch attempt.result {
      case .failure(let error):
        catalog.problems.append(problem(for: error, file: file, vectorID: attempt.id, tree: tree))
      case .success(let vector):
        let problems = VectorValidator.problems(
          in: vector, profile: envelope.profile, file: file, path: "vectors[\(index)]")
        if problems.isEmpty {
          catalog.merge(
            VectorCatalog(vectors: [
              LoadedVector(vector: vector, file: file, area: envelope.area, profile: envelope.profile)
            ]))
        } else {
          catalog.problems += problems
        }
      }
    }
    return catalog
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
      data = try Data(contentsOf: url)
    } catch {
      throw .unreadable(file: url.path, reason: error.localizedDescription)
    }
    do {
      return try JSONDecoder().decode(T.self, from: data)
    } catch {
      let tree = (try? JSONSerialization.jsonObject(with: data)) ?? [:]
      throw problem(for: error, file: url.path, vectorID: nil, tree: tree)
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
      let value = value(at: context.codingPath, in: tree).map(json) ?? "null"
      return .wrongType(
        file: file, vectorID: vectorID, field: context.codingPath.fieldPath, value: value, expected: describe(type))
    case DecodingError.dataCorrupted(let context):
      let value = value(at: context.codingPath, in: tree).map(render) ?? ""
      return .invalidValue(
        file: file, vectorID: vectorID, field: context.codingPath.fieldPath, value: value,
        reason: context.debugDescription)
    default:
      return .invalidFile(file: file, reason: String(describing: error))
    }
  }

  private static func describe(_ type: Any.Type) -> String {
    switch type {
    case is String.Type: "a string"
    case is Int.Type: "an integer"
    case is [String].Type: "an array of strings"
    case is [Any].Type: "an array"
    default: "a \(String(describing: type)) value"
    }
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
    if let string = value as? String { return string }
    return json(value)
  }

  private static func json(_ value: Any) -> String {
    if value is NSNull { return "null" }
    if let data = try? JSONSerialization.data(withJSONObject: value, options: [.fragmentsAllowed, .sortedKeys]) {
      return String(decoding: data, as: UTF8.self)
    }
    return String(describing: value)
  }
}
