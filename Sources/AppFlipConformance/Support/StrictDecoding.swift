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
  /// The path of the field, ending with its name.
  var codingPath: [any CodingKey]
  var known: [String]
}

extension Decoder {
  /// A keyed container that first refuses any field not among `Keys` (or `skipped`: fields a document derives and
  /// writes for readers, which the reader recomputes).
  ///
  /// Each type's field names are listed once and kept, so checking an object costs one set lookup per field.
  func strictContainer<Keys: CodingKey & CaseIterable>(
    keyedBy keys: Keys.Type, skipping skipped: Set<String> = []
  ) throws -> KeyedDecodingContainer<Keys> {
    let all = try container(keyedBy: AnyCodingKey.self)
    let known = KnownFields.names(of: keys)
    for key in all.allKeys where !known.contains(key.stringValue) && !skipped.contains(key.stringValue) {
      throw UnknownFieldError(codingPath: codingPath + [key], known: Keys.allCases.map { $0.stringValue })
    }
    return try container(keyedBy: keys)
  }
}

/// The field names of each coding-key type, listed once per process.
enum KnownFields {
  private static let cache = Locked<[ObjectIdentifier: Set<String>]>([:])

  static func names<Keys: CodingKey & CaseIterable>(of keys: Keys.Type) -> Set<String> {
    if let names = cache.withLock({ $0[ObjectIdentifier(keys)] }) { return names }
    let names = Set(Keys.allCases.map { $0.stringValue })
    cache.withLock { $0[ObjectIdentifier(keys)] = names }
    return names
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
