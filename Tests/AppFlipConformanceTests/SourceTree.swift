import Foundation

/// The package's own Swift sources, read from the checkout, for the tests that guard its structure.
enum SourceTree {
  /// The package root: the folder that holds `Package.swift`.
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

  /// One Swift file: its path relative to the package root, and its text.
  struct File: Sendable {
    /// The path from the package root, e.g. `Sources/AppFlip/OpenedURL.swift`.
    var path: String
    /// The file's contents.
    var text: String
    /// The file's lines.
    var lines: [Substring] { text.split(separator: "\n", omittingEmptySubsequences: false) }
  }

  /// Every Swift file under a folder of the package (e.g. `Sources/AppFlipConformance`), sorted by path.
  static func swiftFiles(under folder: String) -> [File] {
    let base = root.appendingPathComponent(folder)
    guard let walker = FileManager.default.enumerator(at: base, includingPropertiesForKeys: nil) else { return [] }
    var files: [File] = []
    for case let url as URL in walker where url.pathExtension == "swift" {
      guard let text = try? String(contentsOf: url, encoding: .utf8) else { continue }
      let relative = String(url.standardizedFileURL.path.dropFirst(root.standardizedFileURL.path.count + 1))
      files.append(File(path: relative, text: text))
    }
    return files.sorted { $0.path < $1.path }
  }
}
