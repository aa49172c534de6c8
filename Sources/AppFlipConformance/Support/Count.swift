/// A count with its noun in the right number: "1 vector", "2 vectors".
package enum Count {
  /// `count` followed by `singular`, or by its plural (`singular` + "s") when the count is not 1.
  package static func of(_ count: Int, _ singular: String) -> String {
    "\(count) \(count == 1 ? singular : singular + "s")"
  }
}
