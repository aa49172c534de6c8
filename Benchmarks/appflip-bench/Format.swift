import Foundation

/// How the figures are printed.
enum Format {
  /// The width of a figure's label.
  static let labelWidth = 44

  /// `label   12 345 vectors/s    81.0 µs/vector  [80.2–83.9]`: the median round, and the fastest and slowest.
  static func line(_ label: String, _ measurement: Measurement, vectors: Int) -> String {
    let perVector = measurement.median / Double(vectors)
    let fastest = measurement.range.lowerBound / Double(vectors) * 1e6
    let slowest = measurement.range.upperBound / Double(vectors) * 1e6
    let rate = grouped(Int((1 / perVector).rounded())).leftPadded(7)
    return
      "\(label.padding(toLength: labelWidth, withPad: " ", startingAt: 0)) \(rate) vectors/s  \(microseconds(perVector).leftPadded(9))/vector  [\(String(format: "%.1f–%.1f", fastest, slowest))]"
  }

  /// `label   value`, aligned with `line`.
  static func row(_ label: String, _ value: String) -> String {
    "\(label.padding(toLength: labelWidth, withPad: " ", startingAt: 0)) \(value)"
  }

  /// An integer with thin-space groups of three digits: `12 345`.
  static func grouped(_ value: Int) -> String {
    let digits = Array(String(value.magnitude))
    var out = ""
    for (index, digit) in digits.enumerated() {
      if index > 0 && (digits.count - index) % 3 == 0 { out += "\u{2009}" }
      out.append(digit)
    }
    return (value < 0 ? "-" : "") + out
  }

  /// Seconds in the unit that reads best: `2.00 s`, `5.21 ms`, `81.0 µs`.
  static func seconds(_ value: Double) -> String {
    if value >= 1 { return String(format: "%.2f s", value) }
    if value >= 1e-3 { return String(format: "%.2f ms", value * 1e3) }
    return microseconds(value)
  }

  /// Microseconds with one decimal.
  static func microseconds(_ value: Double) -> String {
    String(format: "%.1f µs", value * 1e6)
  }

  /// The median of some values.
  static func median(_ values: [Double]) -> Double {
    Measurement(secondsPerPass: values, passes: 1).median
  }
}
