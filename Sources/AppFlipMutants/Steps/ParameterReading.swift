/// The read step: picking one App Flip parameter out of the link's parameters.
public enum ParameterReading {
  /// Correct: a parameter given more than once is `.duplicated` (AF-IN-2).
  @Sendable public static func exactlyOne(_ parameters: [LinkParameter], _ name: String) -> LinkValue {
    let occurrences = parameters.filter { $0.name == name }
    guard occurrences.count <= 1 else { return .duplicated }
    return LinkValue(occurrence: occurrences.first.map(\.value))
  }

  /// Bug: takes the first occurrence, as `queryItems.first(where:)` does.
  @Sendable public static func first(_ parameters: [LinkParameter], _ name: String) -> LinkValue {
    LinkValue(occurrence: parameters.first { $0.name == name }.map(\.value))
  }

  /// Bug: takes the last occurrence, as building a dictionary from `queryItems` does.
  @Sendable public static func last(_ parameters: [LinkParameter], _ name: String) -> LinkValue {
    LinkValue(occurrence: parameters.last { $0.name == name }.map(\.value))
  }
}
