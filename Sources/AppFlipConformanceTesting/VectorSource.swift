import AppFlipConformance
import Foundation
import Testing

/// Where a partner's vector is written: its file and the line of its `"id"`, so an issue points at the vector.
struct VectorSource: Sendable, Hashable {
  /// The file's absolute path.
  var path: String
  /// The line of the vector's `"id"` field (1 when it cannot be found).
  var line: Int

  /// The Swift Testing location of the vector.
  var sourceLocation: SourceLocation {
    let url = URL(fileURLWithPath: path)
    let folder = url.deletingLastPathComponent().lastPathComponent
    return SourceLocation(
      fileID: "\(folder.isEmpty ? "vectors" : folder)/\(url.lastPathComponent)", filePath: path, line: max(1, line),
      column: 1)
  }

  /// Where each of these vectors is written, when it came from one of the partner's files or folders (`roots`, as
  /// shown and as absolute paths); each file is read once.
  static func sources(of vectors: [LoadedVector], roots: [(shown: String, absolute: String)]) -> [VectorSource?] {
    var lines: [String: [String: Int]] = [:]
    return vectors.map { loaded in
      guard let root = roots.first(where: { loaded.file == $0.shown || loaded.file.hasPrefix($0.shown + "/") })
      else { return nil }
      let path = root.absolute + loaded.file.dropFirst(root.shown.count)
      if lines[path] == nil {
        lines[path] =
          (try? InputFile.read(path, as: .vectors)).map { Self.lines(in: String(decoding: $0, as: UTF8.self)) } ?? [:]
      }
      return VectorSource(path: path, line: lines[path]?[loaded.vector.id] ?? 1)
    }
  }

  /// The line of each vector id in a vector file's text: the line of its `"id": "…"` field.
  static func lines(in text: String) -> [String: Int] {
    var lines: [String: Int] = [:]
    var number = 0
    for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
      number += 1
      var rest = Substring(line)
      while let key = rest.range(of: "\"id\"") {
        rest = rest[key.upperBound...].drop { $0 == " " || $0 == "\t" }
        guard rest.first == ":" else { continue }
        rest = rest.dropFirst().drop { $0 == " " || $0 == "\t" }
        guard rest.first == "\"", let end = rest.dropFirst().firstIndex(of: "\"") else { continue }
        let id = rest[rest.index(after: rest.startIndex)..<end].replacingOccurrences(of: "\\/", with: "/")
        if lines[id] == nil { lines[id] = number }
        rest = rest[end...]
      }
    }
    return lines
  }

  /// A path as the partner would type it from the current directory: relative when it lies below it.
  static func relative(_ path: String) -> String {
    let directory = FileManager.default.currentDirectoryPath
    let prefix = directory.hasSuffix("/") ? directory : directory + "/"
    return path.hasPrefix(prefix) ? String(path.dropFirst(prefix.count)) : path
  }
}
