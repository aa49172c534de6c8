import AppFlipConformance

/// Made-up results shaped like a real run's: 80 % passed, 8 % failed with one to three findings, 5 % warnings,
/// 5 % skipped, 2 % errors with stderr; ids, specs, diffs and stderr carry XML-special, non-ASCII and control bytes.
enum SyntheticResults {
  static let areas = [
    "redirect-uri", "incoming", "state", "reply", "outcomes", "flow", "malformed", "check-order", "configuration",
    "interleaved",
  ]

  /// `count` results, the same every time.
  static func make(count: Int) -> [VectorResult] {
    (0..<count).map(result)
  }

  static func result(_ index: Int) -> VectorResult {
    let area = areas[index % areas.count]
    var result = VectorResult(
      id: "\(area)/synthetic-\(index)", area: area, file: "Vectors/corpus/\(area).json",
      level: index % 7 == 0 ? .should : .must,
      spec: ["App Flip for iOS: Modify your iOS app, step 3", "RFC 9700 §4.1.3", "RFC 3986 §3.2.1"],
      tags: [area, "synthetic", index % 2 == 0 ? "open-redirect" : "encoding"], status: .passed,
      duration: Double(index % 997) * 0.000_013)
    switch index % 100 {
    case 80..<88:
      result.status = .failed
      result.findings = (0...(index % 3)).map { failure($0, index: index) }
    case 88..<93:
      result.status = .warning
      result.findings = [
        Finding(
          rule: "AF-RE-6", level: .should, field: "reply.state", expected: "\"a+b\"",
          actual: "\"a+b\" (RFC 3986) / \"a b\" (form decoding)",
          message: "A reply value should read the same under RFC 3986 and form decoding; encode + as %2B.")
      ]
    case 93..<98:
      result.status = .skipped
      result.message =
        "expects a reply at \"https://oauth-redirect.googleusercontent.com/a/com.google.OPA\", which the partner's allow-list leaves out"
    case 98..<100:
      result.status = .error
      result.message = "step 1: the implementation did not answer within 10.0 seconds"
      result.diagnostics =
        "Traceback (most recent call last):\n  File \"handler.py\", line 42, in <module>\n    raise ValueError(\"state \u{1} & <é>\")\nValueError: state \u{1} & <é>"
    default:
      break
    }
    return result
  }

  static func failure(_ number: Int, index: Int) -> Finding {
    switch number {
    case 0:
      Finding(
        rule: "AF-RE-2", level: .must, field: "reply.state", expected: "\"s\(index)&x=<é>\"", actual: "absent",
        message: "The reply must carry state.")
    case 1:
      Finding(
        rule: "AF-RU-4", level: .must, field: "opened", expected: "nothing",
        actual:
          "\"https://evil.example@oauth-redirect.googleusercontent.com/a/com.google.OPA?code=c1&state=s\(index)\"",
        message: "A link with a missing, duplicated or disallowed redirect_uri must open nothing.")
    default:
      Finding(
        rule: "AF-IN-5", level: .must, field: "authorization.clientId",
        expected: "\"123456789012-appflip.apps.googleusercontent.com\"",
        actual: "\"123456789012-appflip.apps.googleusercontent.com\\u{212A}\"",
        message: "The code must be requested for Google's client id.")
    }
  }
}
