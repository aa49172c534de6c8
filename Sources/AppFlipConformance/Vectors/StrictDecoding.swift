/// A coding key for any field name, used to list the fields a JSON object really has.
struct AnyCodingKey: CodingKey, Hashable {
  var stringValue: String
  var intValue: Int?

  init(stringValue: String) {
    self.stringValue = stringValue
    self.intValue = nil
  }

  init(intValue: Int) {
    self.stringValue = String(intValue)
    self.intValue = intValue
  }
}

/// Thrown when a JSON object holds a field its type does not define: a typo must never turn a vector into one that asserts nothing.
struct UnknownFieldError: Error {
  var codingPath: [any CodingKey]
  var field: String
  var known: [String]
}

extension Decoder {
  /// A keyed container that first refuses any field not among `Keys`.
  ///
  /// The common case costs one count: when every field of the object converts to a `Keys` value, none is unknown
  /// (duplicate fields are refused before decoding, by `JSONSyntax`); only then are the fields listed one by one.
  func strictContainer<Keys: CodingKey & CaseIterable>(keyedBy keys: Keys.Type) throws -> KeyedDecodingContainer<Keys> {
    let typed = try container(keyedBy: keys)
    let all = try container(keyedBy: AnyCodingKey.self)
    guard all.allKeys.count != typed.allKeys.count else { return typed }
    let known = Keys.allCases.map { $0.stringValue }
    for key in all.allKeys where !known.contains(key.stringValue) {
      throw UnknownFieldError(codingPath: codingPath + [key], field: key.stringValue, known: known)
    }
    return typed
  }
}

extension Array where Element == any CodingKey {
  /// A path such as `vectors[3].expect.reply.state`.
  var fieldPath: String {
    var path = ""
    for key in self {
      if let index = key.intValue {
        path += "[\(index)]"
      } else {
        path += path.isEmpty ? key.stringValue : ".\(key.stringValue)"
      }
    }
    return path
  }
}
