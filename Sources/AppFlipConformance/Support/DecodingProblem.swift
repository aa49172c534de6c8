/// What a decoder refused, read from the error's case and coding path so each caller words it its own way.
package enum DecodingProblem {
  /// An object holds a field its type does not define; `known` lists the fields it does.
  case unknownField(path: [any CodingKey], known: [String])
  /// A required field is absent; `path` ends with the missing field.
  case missing(path: [any CodingKey])
  /// A field holds a value of another JSON type than `expected`, or null.
  case wrongType(path: [any CodingKey], expected: Any.Type)
  /// A value of the right JSON type that cannot be used; `detail` is the decoder's or the type's own reason.
  case corrupted(path: [any CodingKey], kind: Corruption, detail: String)
  /// An error that is not a decoding error.
  case other(any Error)

  /// Reads `error` by its case and coding path.
  package init(_ error: any Error) {
    switch error {
    case let error as UnknownFieldError:
      self = .unknownField(path: error.codingPath, known: error.known)
    case DecodingError.keyNotFound(let key, let context):
      self = .missing(path: context.codingPath + [key])
    case DecodingError.typeMismatch(let type, let context), DecodingError.valueNotFound(let type, let context):
      self = .wrongType(path: context.codingPath, expected: type)
    case DecodingError.dataCorrupted(let context):
      self = .corrupted(path: context.codingPath, kind: Corruption(context), detail: context.debugDescription)
    default:
      self = .other(error)
    }
  }

  /// The coding path of the field the problem is in; empty for the whole document or a non-decoding error.
  package var path: [any CodingKey] {
    switch self {
    case .unknownField(let path, _), .missing(let path), .wrongType(let path, _), .corrupted(let path, _, _):
      path
    case .other:
      []
    }
  }

  /// The kind of JSON value `type` decodes from, as a phrase ("a string", "an integer") in the vector files' words.
  package static func kind(of type: Any.Type) -> String {
    switch type {
    case is String.Type: "a string"
    case is Int.Type: "an integer"
    case is Bool.Type: "true or false"
    case is [String].Type: "an array of strings"
    case is Double.Type: "a number"
    case is [Any].Type: "an array"
    case is [String: Any].Type: "an object"
    default: "a JSON value of the documented kind"
    }
  }

  /// Why a value of the right JSON type was refused.
  package enum Corruption: Equatable {
    /// The parser refused the document as a whole (after a strict scan passed, a number it cannot hold).
    case unparsable
    /// A string that is not one of a closed set's raw values; `typeName` names the set's type.
    case notAllowed(typeName: String)
    /// A number the decoder cannot hold in the field's type (too large, or a fraction for a whole number).
    case unrepresentableNumber
    /// A type's own check refused the value; the problem's `detail` says why.
    case invalid

    /// Reads the refusal from the context. Foundation names the raw value's type, and tells a refused document or
    /// number from a type's own check, only in its message's wording, so that wording is read here and nowhere else.
    init(_ context: DecodingError.Context) {
      let message = context.debugDescription
      if context.codingPath.isEmpty && message.contains("not valid JSON") {
        self = .unparsable
      } else if message.hasPrefix("Cannot initialize ") {
        let name = message.dropFirst("Cannot initialize ".count).prefix { $0 != " " }
        self = .notAllowed(typeName: String(name))
      } else if message.contains("not representable") || message.contains("Number") {
        self = .unrepresentableNumber
      } else {
        self = .invalid
      }
    }
  }
}
