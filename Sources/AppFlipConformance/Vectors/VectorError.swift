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
  /// The bytes are not JSON (RFC 8259): a syntax error, a trailing comma, or nesting too deep, with where.
  case invalidJSON(file: String, line: Int, column: Int, reason: String)
  /// One object holds the same field twice (a decoder would silently keep one of them).
  case duplicateKey(file: String, field: String, line: Int, column: Int)
  /// A field's value is not among the values its closed set allows; `reason` lists them.
  case notAllowed(file: String, vectorID: String?, field: String, value: String, reason: String)
  /// More vectors of one file are unusable than are listed one by one (`VectorLoader.problemsListed`).
  case moreInvalidVectors(file: String, count: Int)

  /// The file the problem is in.
  public var file: String {
    switch self {
    case .unreadable(let file, _), .invalidFile(let file, _), .unsupportedSchemaVersion(let file, _),
      .unknownField(let file, _, _, _), .missingField(let file, _, _), .wrongType(let file, _, _, _, _),
      .invalidValue(let file, _, _, _, _), .duplicateID(let file, _, _), .invalidJSON(let file, _, _, _),
      .duplicateKey(let file, _, _, _), .notAllowed(let file, _, _, _, _), .moreInvalidVectors(let file, _):
      file
    }
  }

  /// The id of the vector the problem is in, when it is known.
  public var vectorID: String? {
    switch self {
    case .unreadable, .invalidFile, .unsupportedSchemaVersion, .invalidJSON, .duplicateKey, .moreInvalidVectors: nil
    case .unknownField(_, let id, _, _), .missingField(_, let id, _), .wrongType(_, let id, _, _, _),
      .invalidValue(_, let id, _, _, _), .notAllowed(_, let id, _, _, _):
      id
    case .duplicateID(_, let id, _): id
    }
  }
}

extension VectorError: CustomStringConvertible {
  /// One sentence that quotes the bad input and says what to do.
  public var description: String {
    func place(_ vectorID: String?, _ field: String) -> String {
      if let vectorID { return "\(file): vector \(Quoted.string(vectorID)), field \"\(field)\"" }
      // Only a field inside a vector file's `vectors` array belongs to a vector; a configuration or waiver file's
      // fields (and a vector file's envelope) are named by the field alone.
      guard field.hasPrefix("vectors[") else { return "\(file): field \"\(field)\"" }
      return "\(file): a vector without a readable id, field \"\(field)\""
    }
    switch self {
    case .unreadable(let file, let reason):
      return "\(file): cannot be read (\(reason)); check the path."
    case .invalidFile(let file, let reason):
      return "\(file): is not a file of the expected format (\(reason)); see README.md and Vectors/README.md."
    case .unsupportedSchemaVersion(let file, let version):
      return
        "\(file): schemaVersion \(version) is not supported; write \(VectorFile.currentSchemaVersion) or update appflip-conformance."
    case .unknownField(_, let id, let field, let known):
      let name = field.split(separator: ".").last.map(String.init) ?? field
      let hint = Spelling.closest(to: name, in: known, maxEdits: 2).map { " (did you mean \"\($0)\"?)" } ?? ""
      return
        "\(place(id, field)): unknown field \"\(name)\"\(hint); use one of \(known.map { "\"\($0)\"" }.joined(separator: ", "))."
    case .missingField(_, let id, let field):
      return "\(place(id, field)): is required but missing; add it."
    case .wrongType(_, let id, let field, let value, let expected):
      return "\(place(id, field)): \(value) has the wrong type; write \(expected)."
    case .invalidValue(_, let id, let field, let value, let reason):
      return "\(place(id, field)): \(Quoted.string(value)) is not allowed: \(reason)."
    case .notAllowed(_, let id, let field, let value, let reason):
      return "\(place(id, field)): \(reason); got \(Quoted.string(value))."
    case .invalidJSON(let file, let line, let column, let reason):
      return "\(file): line \(line), column \(column): not valid JSON: \(reason)."
    case .duplicateKey(let file, let field, let line, let column):
      let name = field.split(separator: ".").last.map(String.init) ?? field
      return
        "\(file): line \(line), column \(column): field \"\(field)\" appears twice in one object (a reader would silently keep one); keep one \"\(name)\"."
    case .moreInvalidVectors(let file, let count):
      return
        "\(file): \(Count.of(count, "more vector")) cannot be used and \(count == 1 ? "is" : "are") not listed one by one; fix the \(VectorLoader.problemsListed) listed (most likely the same mistake) and load the file again."
    case .duplicateID(let file, let id, let firstFile):
      return "\(file): vector \"\(id)\", field \"id\": reuses an id already defined in \(firstFile); give it a new id."
    }
  }
}
