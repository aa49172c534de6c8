import Foundation

extension DecodingProblem {
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
