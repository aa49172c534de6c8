import Foundation

/// Dates as ISO 8601 text in UTC, in the forms the reports and the waiver file write, and back.
package enum Timestamp {
  /// `2025-01-02T03:04:05Z`: whole seconds, UTC, with its `Z` (the JSON results' `startedAt`).
  package static func string(_ date: Date) -> String {
    let formatter = ISO8601DateFormatter()
    formatter.formatOptions = [.withInternetDateTime]
    return formatter.string(from: date)
  }

  /// `2025-01-02T03:04:05`: whole seconds, UTC, without the zone designator, as JUnit's `timestamp` is written.
  package static func withoutZone(_ date: Date) -> String {
    string(date).replacingOccurrences(of: "Z", with: "")
  }

  /// `2025-01-02`: the day in UTC, as a waiver's date is written.
  package static func day(_ date: Date) -> String {
    String(string(date).prefix(10))
  }

  /// Reads an ISO 8601 date and time, with or without fractional seconds; `nil` when the text is neither.
  package static func date(_ text: String) -> Date? {
    let formatter = ISO8601DateFormatter()
    formatter.formatOptions = [.withInternetDateTime]
    if let date = formatter.date(from: text) { return date }
    formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
    return formatter.date(from: text)
  }
}
