import AppFlipConformance
import Foundation

/// The report files the harnesses of this process write, so two harnesses never overwrite each other's reports.
enum ReportClaims {
  private static let lock = NSLock()
  nonisolated(unsafe) private static var claimed: [String: String] = [:]

  /// Claims `paths` for the harness `name`; returns why not, in one sentence, when another harness writes one of them
  /// (a Markdown summary that is appended to, such as `$GITHUB_STEP_SUMMARY`, is shared).
  static func claim(_ paths: [String], for name: String) -> String? {
    let owned = paths.filter { !RunReports.isShared($0) }
    let keys = owned.map { URL(fileURLWithPath: $0).standardizedFileURL.path }
    return lock.withLock {
      for (path, key) in zip(owned, keys) {
        if let owner = claimed[key] {
          return "ConformanceHarness \"\(name)\" would overwrite \"\(path)\", which ConformanceHarness \"\(owner)\" "
            + "writes; give each harness its own name: (its reports are named after it) or its own report paths."
        }
      }
      for key in keys { claimed[key] = name }
      return nil
    }
  }
}
