import AppFlip
import Foundation

extension VectorLoader {
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
