import Foundation

/// Finding the Python example and the interpreter that runs it.
enum Executables {
  /// The first executable named `name` on `PATH`.
  static func find(_ name: String) -> String? {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
    return path.split(separator: ":").map { "\($0)/\(name)" }.first {
      FileManager.default.isExecutableFile(atPath: $0)
    }
  }

  /// `Examples/python/appflip_handler.py` in the working directory, else in the checkout this binary was built from.
  static func pythonExample() -> String? { inCheckout("Examples/python/appflip_handler.py") }

  /// `Tests/Fixtures/subprocess/NAME` in the working directory, else in the checkout this binary was built from.
  static func fixture(_ name: String) -> String? { inCheckout("Tests/Fixtures/subprocess/" + name) }

  /// The file at `relative` in the working directory, else in the checkout this binary was built from.
  private static func inCheckout(_ relative: String) -> String? {
    let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent()
    let candidates = [
      URL(fileURLWithPath: FileManager.default.currentDirectoryPath).appendingPathComponent(relative),
      packageRoot.appendingPathComponent(relative),
    ]
    return candidates.map(\.path).first { FileManager.default.fileExists(atPath: $0) }
  }

  /// A word for `/bin/sh`: single-quoted, with embedded single quotes closed, escaped and reopened.
  static func shellQuoted(_ word: String) -> String {
    "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
  }
}
