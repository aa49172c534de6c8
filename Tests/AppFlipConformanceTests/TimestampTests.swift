import Foundation
import Testing

@testable import AppFlipConformance

/// The one ISO 8601 helper writes exactly what each report wrote with its own formatter before.
@Suite("Timestamps")
struct TimestampTests {
  /// 2025-01-02 03:04:05.678 UTC.
  static let date = Date(timeIntervalSince1970: 1_735_787_045.678)

  @Test("Timestamps are UTC, whole seconds: with Z for JSON, without it for JUnit, the day for a waiver")
  func forms() {
    #expect(Timestamp.string(Self.date) == "2025-01-02T03:04:05Z")
    #expect(Timestamp.withoutZone(Self.date) == "2025-01-02T03:04:05")
    #expect(Timestamp.day(Self.date) == "2025-01-02")
    #expect(
      Timestamp.withoutZone(Self.date)
        == ISO8601DateFormatter().string(from: Self.date).replacingOccurrences(of: "Z", with: ""))
  }

  @Test("Written from the calendar fields, a timestamp is what ISO8601DateFormatter writes, over four centuries")
  func sameAsFormatter() {
    let formatter = ISO8601DateFormatter()
    var random = SystemRandomNumberGenerator()
    // From 1900 to 2300, with fractions of a second (rounded to the millisecond, then floored, by both) and the edges
    // of days, months and leap years.
    let edges: [Double] = [
      0, -0.5, 951_782_399.999, 951_868_800, 4_107_542_399.75, -2_208_988_800, 751_086_456.999_581_3,
      -1_198_124_157.000_245_8,
    ]
    let dates = edges + (0..<20_000).map { _ in Double.random(in: -2_208_988_800..<10_413_792_000, using: &random) }
    for seconds in dates {
      let date = Date(timeIntervalSince1970: seconds)
      #expect(Timestamp.string(date) == formatter.string(from: date), "\(seconds)")
    }
  }

  @Test("A timestamp reads back with or without fractional seconds, and text that is not one reads as nil")
  func reading() {
    #expect(Timestamp.date("2025-01-02T03:04:05Z") == Date(timeIntervalSince1970: 1_735_787_045))
    #expect(Timestamp.date("2025-01-02T03:04:05.678Z").map { abs($0.timeIntervalSince(Self.date)) < 0.001 } == true)
    #expect(Timestamp.date("2025-01-02") == nil)
  }
}
