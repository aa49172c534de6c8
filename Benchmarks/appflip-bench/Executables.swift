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

  /// The Python interpreter itself: `python3` on `PATH` may be a launcher (pyenv's shims are bash scripts that start
  /// several processes, 0.1 s quiet and 0.3 s under load, per handler started), which would be timed as the harness's.
  static func python() -> String? {
    guard let python3 = find("python3") else { return nil }
    let process = Process()
    let pipe = Pipe()
    process.executableURL = URL(fileURLWithPath: python3)
    process.arguments = ["-c", "import sys; print(sys.executable)"]
    process.standardOutput = pipe
    guard (try? process.run()) != nil else { return python3 }
    let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    let path = output.trimmingCharacters(in: .whitespacesAndNewlines)
    return FileManager.default.isExecutableFile(atPath: path) ? path : python3
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
