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
  func strictContainer<Keys: CodingKey & CaseIterable>(keyedBy keys: Keys.Type) throws -> KeyedDecodingContainer<Keys> {
    let all = try container(keyedBy: AnyCodingKey.self)
    let known = Keys.allCases.map(\.stringValue)
    for key in all.allKeys where !known.contains(key.stringValue) {
      throw UnknownFieldError(codingPath: codingPath + [key], field: key.stringValue, known: known)
    }
    return try container(keyedBy: keys)
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
