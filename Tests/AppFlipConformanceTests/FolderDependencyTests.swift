import Testing

/// The harness module's folders form layers: no folder uses a type of a folder that uses one of its own.
@Suite("Folder dependencies")
struct FolderDependencyTests {
  @Test("No folder of Sources/AppFlipConformance uses a folder that uses it back, directly or around a loop")
  func noFolderLoop() {
    let graph = FolderGraph(module: "AppFlipConformance")
    #expect(graph.edges["Command"] != nil, "the scan finds the command's uses of other folders")
    if let cycle = graph.cycle() {
      let steps = zip(cycle, cycle.dropFirst()).map { from, to in
        "\(from) uses \(to): " + (graph.edges[from]?[to] ?? []).sorted().prefix(5).joined(separator: ", ")
      }
      Issue.record(
        "Sources/AppFlipConformance has a folder loop \(cycle.joined(separator: " → ")); \(steps.joined(separator: "; ")). Move the type to the folder it belongs to, or into Support/."
      )
    }
  }

  @Test("Nothing outside an adapter's own folder casts to it: the run engine asks ConformanceAdapter (issue 24)")
  func noAdapterDowncast() throws {
    let files = SourceTree.swiftFiles(under: "Sources")
    let declaration = try Regex(#"(?:struct|class) (\w+)(<[^>]*>)?: ConformanceAdapter"#)
    // Each concrete adapter and the folder it is declared in.
    let adapters: [(name: String, folder: String)] = files.flatMap { file in
      let folder = file.path.split(separator: "/").dropLast().joined(separator: "/")
      return file.text.matches(of: declaration).compactMap { $0.output[1].substring.map { (String($0), folder) } }
    }
    #expect(adapters.map(\.name).contains("SubprocessAdapter") && adapters.count >= 4, "\(adapters)")
    for (name, folder) in adapters {
      let cast = try Regex(#"(\bas[?!]?|\bis) +\#(name)\b"#)
      for file in files where !file.path.hasPrefix(folder + "/") {
        for (number, line) in file.lines.enumerated() where line.contains(cast) {
          Issue.record("\(file.path):\(number + 1) casts to \(name): \(line.trimmingCharacters(in: .whitespaces))")
        }
      }
    }
  }

  @Test("The loop finder names a loop of folders, and finds none in layers")
  func cycleFinder() {
    let loop = FolderGraph(
      files: [
        SourceTree.File(path: "M/Adapters/A.swift", text: "struct A {\n  let t = Timeout()\n}\n"),
        SourceTree.File(path: "M/Running/Timeout.swift", text: "struct Timeout {\n  // A is only in a comment\n}\n"),
        SourceTree.File(path: "M/Running/Runner.swift", text: "struct Runner {\n  var adapter: A\n}\n"),
      ], prefix: "M/")
    #expect(loop.cycle() == ["Adapters", "Running", "Adapters"])
    let layers = FolderGraph(
      files: [
        SourceTree.File(path: "M/Adapters/A.swift", text: "struct A {\n  let t = Timeout()\n}\n"),
        SourceTree.File(path: "M/Support/Timeout.swift", text: "struct Timeout {}  // used by A\n"),
        SourceTree.File(path: "M/Running/Runner.swift", text: "struct Runner {\n  var adapter: A\n}\n"),
      ], prefix: "M/")
    #expect(layers.cycle() == nil)
    #expect(layers.edges["Running"]?["Adapters"] == ["A (Runner.swift)"])
  }
}
