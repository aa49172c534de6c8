import Foundation

/// Dates as ISO 8601 text in UTC, in the forms the reports and the waiver file write, and back.
package enum Timestamp {
  /// `2025-01-02T03:04:05Z`: whole seconds, UTC, with its `Z` (the JSON results' `startedAt`).
  /// Written from the calendar fields `gmtime_r` gives, of the time rounded to the millisecond as the formatter rounds
  /// it: the first `ISO8601DateFormatter` of a process loads ICU, 2 ms before a run's first result.
  package static func string(_ date: Date) -> String {
    var seconds = time_t(((date.timeIntervalSince1970 * 1_000).rounded() / 1_000).rounded(.down))
    var utc = tm()
    gmtime_r(&seconds, &utc)
    func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
    return "\(utc.tm_year + 1900)-\(two(utc.tm_mon + 1))-\(two(utc.tm_mday))T\(two(utc.tm_hour)):\(two(utc.tm_min)):"
      + "\(two(utc.tm_sec))Z"
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
