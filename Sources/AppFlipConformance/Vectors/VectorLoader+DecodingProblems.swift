import AppFlip
import Foundation

extension VectorLoader {
  /// Turns a decoding error into a problem naming the file, vector and field, quoting the bad value.
  static func problem(for error: any Error, file: String, vectorID: String?, tree: LazyTree) -> VectorError {
    let problem = DecodingProblem(error)
    let field = problem.path.fieldPath
    let found = tree.value(at: problem.path)
    switch problem {
    case .unknownField(_, let known):
      return .unknownField(file: file, vectorID: vectorID, field: field, known: known)
    case .missing:
      return .missingField(file: file, vectorID: vectorID, field: field)
    case .wrongType(_, let type):
      let shown = found.map(json) ?? "null"
      if let number = found as? NSNumber, !(found is Bool), type is Int.Type {
        return .invalidValue(
          file: file, vectorID: vectorID, field: field, value: jsonText(number),
          reason:
            "\(field.split(separator: ".").last ?? "it") must be a whole number\(number.doubleValue.rounded() == number.doubleValue ? " small enough for 64 bits" : ", not a fraction")"
        )
      }
      return .wrongType(
        file: file, vectorID: vectorID, field: field, value: shown,
        expected: DecodingProblem.kind(of: type))
    case .corrupted(_, .unparsable, _):
      // The strict scan passed, so the decoder refused a number: a fraction or one too large where a whole number
      // belongs. Name the first such field rather than the whole file.
      guard let (path, number) = firstInexactNumber(in: tree.value, path: "") else {
        return .invalidFile(file: file, reason: "a number cannot be read")
      }
      let name = path.split(separator: ".").last.map(String.init) ?? path
      let fraction = number.rounded() != number
      return .invalidValue(
        file: file, vectorID: vectorID, field: path, value: jsonText(number as Any),
        reason: "\(name) must be a whole number\(fraction ? ", not a fraction" : " small enough for 64 bits")")
    case .corrupted(let path, let kind, let detail):
      let name = path.last?.stringValue ?? "the value"
      if case .notAllowed(let typeName) = kind, let allowed = allowedValues(of: typeName) {
        return .notAllowed(
          file: file, vectorID: vectorID, field: field, value: found.map(render) ?? "",
          reason: "\(name) must be one of \(allowed.joined(separator: ", "))")
      }
      if kind == .unrepresentableNumber {
        return .invalidValue(
          file: file, vectorID: vectorID, field: field, value: found.map(jsonText) ?? "",
          reason: "\(name) must be a whole number small enough for 64 bits")
      }
      return .invalidValue(
        file: file, vectorID: vectorID, field: field, value: found.map(render) ?? "", reason: detail)
    case .other:
      return .invalidFile(file: file, reason: "it cannot be read as this format")
    }
  }

  /// The values the closed set named `typeName` allows, for a raw value that is not one of them.
  static func allowedValues(of typeName: String) -> [String]? {
    let sets: [String: [String]] = [
      "Level": Level.allCases.map(\.rawValue), "Verdict": Verdict.allCases.map(\.rawValue),
      "AppFlipErrorCode": AppFlipErrorCode.allCases.map(\.rawValue), "Status": Status.allCases.map(\.rawValue),
      "Profile": VectorFile.Profile.allCases.map(\.rawValue), "Result": Vector.Outcome.Result.allCases.map(\.rawValue),
      "Grant": Vector.Exchange.Grant.allCases.map(\.rawValue),
      "ClientAuth": Vector.Exchange.ClientAuth.allCases.map(\.rawValue),
      "SecretVariation": Vector.Exchange.SecretVariation.allCases.map(\.rawValue),
      "VerifierVariation": Vector.Exchange.VerifierVariation.allCases.map(\.rawValue),
      "Wait": Vector.Exchange.Wait.allCases.map(\.rawValue),
    ]
    return sets[typeName]
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

  /// A value for a problem that quotes (and caps) it once, in its sentence: a string as it is, else its JSON.
  private static func render(_ value: Any) -> String {
    if let string = value as? String { return string }
    return jsonText(value)
  }

  /// A value as a sentence shows it, quoted and capped once: a string by `Quoted.string` (its length counted in
  /// characters of the value itself, not of an escaped or already capped copy), anything else as compact JSON.
  private static func json(_ value: Any) -> String {
    if let string = value as? String { return Quoted.string(string) }
    return Quoted.cut(jsonText(value), limit: Quoted.limit)
  }

  private static func jsonText(_ value: Any) -> String {
    if value is NSNull { return "null" }
    if let data = try? JSONSerialization.data(withJSONObject: value, options: [.fragmentsAllowed, .sortedKeys]) {
      return String(decoding: data, as: UTF8.self)
    }
    return "a value"
  }
}
