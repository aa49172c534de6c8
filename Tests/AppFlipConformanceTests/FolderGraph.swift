import Foundation

/// Which folder of a module uses types declared in which other folder, from the identifiers each file mentions.
///
/// A type belongs to the folder of the file that declares it at the top level (`struct`, `class`, `enum`, `protocol`,
/// `actor`, `typealias` at the start of a line); a folder is the first folder under the module (`Adapters/InProcess` is
/// `Adapters`). A file uses a type when its code, comments left out, names it.
struct FolderGraph: Sendable {
  /// For each folder, the folders it uses, each with the types that make the edge and the files that name them.
  var edges: [String: [String: Set<String>]] = [:]

  /// The graph of the Swift files under `Sources/<module>`.
  init(module: String) {
    self.init(files: SourceTree.swiftFiles(under: "Sources/\(module)"), prefix: "Sources/\(module)/")
  }

  /// The graph of these files; `prefix` is cut from each path before its first folder is taken.
  init(files: [SourceTree.File], prefix: String) {
    let declaration = try! Regex(
      #"^(?:@\w+(?:\([^)]*\))?\s+)*(?:(?:public|package|internal|fileprivate|private|final|indirect)\s+)*(?:struct|class|enum|protocol|actor|typealias)\s+([A-Za-z_]\w*)"#
    )
    let identifier = try! Regex(#"[A-Za-z_][A-Za-z0-9_]*"#)
    func folder(_ path: String) -> String {
      String(path.dropFirst(prefix.count).split(separator: "/").first ?? "")
    }
    var home: [String: String] = [:]
    for file in files {
      for line in file.lines {
        if let match = try? declaration.prefixMatch(in: line), let name = match.output[1].substring {
          home[String(name)] = folder(file.path)
        }
      }
    }
    for file in files {
      let from = folder(file.path)
      for line in file.lines {
        let trimmed = line.drop { $0 == " " }
        if trimmed.hasPrefix("//") { continue }
        let code = line.range(of: " //").map { line[..<$0.lowerBound] } ?? line
        for match in code.matches(of: identifier) {
          let name = String(code[match.range])
          guard let to = home[name], to != from else { continue }
          let fileName = file.path.split(separator: "/").last.map(String.init) ?? file.path
          edges[from, default: [:]][to, default: []].insert("\(name) (\(fileName))")
        }
      }
    }
  }

  /// A loop of folders, each using the next and the last using the first (`["Adapters", "Running", "Adapters"]`), or
  /// nil when there is none.
  func cycle() -> [String]? {
    var state: [String: Bool] = [:]  // false: on the current path, true: done
    var path: [String] = []
    func visit(_ folder: String) -> [String]? {
      state[folder] = false
      path.append(folder)
      for next in (edges[folder] ?? [:]).keys.sorted() {
        if state[next] == false, let start = path.firstIndex(of: next) { return Array(path[start...]) + [next] }
        if state[next] == nil, let found = visit(next) { return found }
      }
      path.removeLast()
      state[folder] = true
      return nil
    }
    for folder in edges.keys.sorted() where state[folder] == nil {
      if let found = visit(folder) { return found }
    }
    return nil
  }
}
