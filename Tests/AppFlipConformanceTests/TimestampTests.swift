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

  @Test("A timestamp reads back with or without fractional seconds, and text that is not one reads as nil")
  func reading() {
    #expect(Timestamp.date("2025-01-02T03:04:05Z") == Date(timeIntervalSince1970: 1_735_787_045))
    #expect(Timestamp.date("2025-01-02T03:04:05.678Z").map { abs($0.timeIntervalSince(Self.date)) < 0.001 } == true)
    #expect(Timestamp.date("2025-01-02") == nil)
  }
}
