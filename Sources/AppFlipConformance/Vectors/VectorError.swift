/// Why a vector file or a vector cannot be used; each names the file, the vector id where known, and the field.
public enum VectorError: Error, Sendable, Hashable {
  /// A path given to the loader does not exist or cannot be read.
  case unreadable(file: String, reason: String)
  /// The file is not JSON, or not a JSON object with the envelope's fields.
  case invalidFile(file: String, reason: String)
  /// The file's `schemaVersion` is not one this release reads.
  case unsupportedSchemaVersion(file: String, version: Int)
  /// A field that the format does not define (a typo must not make a vector assert nothing).
  case unknownField(file: String, vectorID: String?, field: String, known: [String])
  /// A required field is absent.
  case missingField(file: String, vectorID: String?, field: String)
  /// A field has the wrong JSON type.
  case wrongType(file: String, vectorID: String?, field: String, value: String, expected: String)
  /// A field's value is not allowed.
  case invalidValue(file: String, vectorID: String?, field: String, value: String, reason: String)
  /// Two vectors share an id.
  case duplicateID(file: String, vectorID: String, firstFile: String)

  /// The file the problem is in.
  public var file: String {
    switch self {
    case .unreadable(let file, _), .invalidFile(let file, _), .unsupportedSchemaVersion(let file, _),
      .unknownField(let file, _, _, _), .missingField(let file, _, _), .wrongType(let file, _, _, _, _),
      .invalidValue(let file, _, _, _, _), .duplicateID(let file, _, _):
      file
    }
  }

  /// The id of the vector the problem is in, when it is known.
  public var vectorID: String? {
    switch self {
    case .unreadable, .invalidFile, .unsupportedSchemaVersion: nil
    case .unknownField(_, let id, _, _), .missingField(_, let id, _), .wrongType(_, let id, _, _, _),
      .invalidValue(_, let id, _, _, _):
      id
    case .duplicateID(_, let id, _): id
    }
  }
}

extension VectorError: CustomStringConvertible {
  /// One sentence that quotes the bad input and says what to do.
  public var description: String {
    func place(_ vectorID: String?, _ field: String) -> String {
      // A configuration or waiver file has no vectors: name the field only.
      if vectorID == nil, !field.hasPrefix("vectors") { return "\(file): field \"\(field)\"" }
      let vector = vectorID.map { "vector \"\($0)\"" } ?? "a vector without a readable id"
      return "\(file): \(vector), field \"\(field)\""
    }
    switch self {
    case .unreadable(let file, let reason):
      return "\(file): cannot be read (\(reason)); check the path."
    case .invalidFile(let file, let reason):
      return "\(file): is not a vector file (\(reason)); see Vectors/README.md for the format."
    case .unsupportedSchemaVersion(let file, let version):
      return
        "\(file): schemaVersion \(version) is not supported; write \(VectorFile.currentSchemaVersion) or update appflip-conformance."
    case .unknownField(_, let id, let field, let known):
      let name = field.split(separator: ".").last.map(String.init) ?? field
      let hint = Self.closest(to: name, in: known).map { " (did you mean \"\($0)\"?)" } ?? ""
      return
        "\(place(id, field)): unknown field \"\(name)\"\(hint); use one of \(known.map { "\"\($0)\"" }.joined(separator: ", "))."
    case .missingField(_, let id, let field):
      return "\(place(id, field)): is required but missing; add it."
    case .wrongType(_, let id, let field, let value, let expected):
      return "\(place(id, field)): \(value) has the wrong type; write \(expected)."
    case .invalidValue(_, let id, let field, let value, let reason):
      return "\(place(id, field)): \"\(value)\" is not allowed: \(reason)."
    case .duplicateID(let file, let id, let firstFile):
      return "\(file): vector \"\(id)\" reuses an id already defined in \(firstFile); give it a new id."
    }
  }

  /// The known name nearest to a misspelled one, if any is within two edits.
  static func closest(to name: String, in known: [String]) -> String? {
    Spelling.closest(to: name, in: known, maxEdits: 2)
  }
}
