import AppFlipConformance
import Foundation

/// (e) scale: loading 1k, 10k and 100k vectors from files, and merging JUnit shards of 100k test cases.
enum Scale {
  /// A vector like the bundled ones, with its own id.
  static func vector(_ index: Int) -> String {
    let redirect = "https://oauth-redirect.googleusercontent.com/a/com.google.OPA"
    return """
      {"id": "scale/v\(index)", "description": "synthetic vector \(index)", "spec": ["App Flip for iOS"], \
      "rules": ["AF-RE-2"], "level": "must", "tags": ["scale"], \
      "incoming": {"params": [["client_id", "{client_id}"], ["scope", "devices"], ["state", "s\(index)"], \
      ["redirect_uri", "\(redirect)"]]}, "outcome": {"result": "granted", "code": "c\(index)"}, \
      "expect": {"verdict": "accepted", "authorization": {"clientId": "{client_id}", "redirectUri": "\(redirect)", \
      "scopes": ["devices"]}, "reply": {"base": "\(redirect)", "code": "c\(index)", "state": "s\(index)"}}}
      """
  }

  /// Writes `count` vectors into ten files under a fresh folder.
  static func writeVectors(_ count: Int, into folder: URL) throws {
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let perFile = max(1, count / 10)
    for file in 0..<((count + perFile - 1) / perFile) {
      let range = (file * perFile)..<min(count, (file + 1) * perFile)
      let body = range.map(vector).joined(separator: ",\n")
      let text = "{\"schemaVersion\": 1, \"area\": \"scale\", \"description\": \"scale\", \"vectors\": [\n\(body)]}\n"
      try Data(text.utf8).write(to: folder.appendingPathComponent(String(format: "scale-%02d.json", file)))
    }
  }

  /// Prints the load and merge figures.
  static func print(_ sizes: [Int], mergeCases: Int) {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent(
      "appflip-bench-scale-\(ProcessInfo.processInfo.processIdentifier)")
    defer {
      if ProcessInfo.processInfo.environment["APPFLIP_BENCH_KEEP"] == nil {
        try? FileManager.default.removeItem(at: root)
      }
    }
    for size in sizes {
      let folder = root.appendingPathComponent("v\(size)")
      do {
        try writeVectors(size, into: folder)
      } catch {
        Swift.print(Format.row("load", "cannot write the synthetic vectors: \(error)"))
        return
      }
      var catalog = VectorCatalog()
      let cpu = CPUTime.now()
      let seconds = Stopwatch.seconds { catalog = VectorLoader.load([folder]) }
      let used = CPUTime.now() - cpu
      let note = catalog.problems.isEmpty ? "" : " (\(catalog.problems.count) problems!)"
      Swift.print(
        Format.row(
          "load: \(Format.grouped(size)) vectors in 10 files",
          "\(Format.seconds(seconds)) wall, \(Format.seconds(used)) CPU (\(catalog.vectors.count) loaded\(note))"))
    }
    let results = SyntheticResults.make(count: mergeCases)
    let shards = 4
    var files: [URL] = []
    do {
      try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
      for shard in 0..<shards {
        let part = results.enumerated().filter { $0.offset % shards == shard }.map(\.element)
        let url = root.appendingPathComponent("shard-\(shard).xml")
        try Data(JUnitReport.render(part, implementation: "synthetic").utf8).write(to: url)
        files.append(url)
      }
      var size = 0
      let cpu = CPUTime.now()
      let seconds = try Stopwatch.seconds { size = try JUnitMerge.merge(files).utf8.count }
      let used = CPUTime.now() - cpu
      Swift.print(
        Format.row(
          "merge-junit: \(Format.grouped(mergeCases)) cases in \(shards) shards",
          "\(Format.seconds(seconds)) wall (limit: a few seconds), \(Format.seconds(used)) CPU, "
            + "\(String(format: "%.1f MB", Double(size) / 1e6))"
        ))
    } catch {
      Swift.print(Format.row("merge-junit", "failed: \(error)"))
    }
  }
}

/// The CPU time this process has used (user and system), to read figures taken on a busy machine.
enum CPUTime {
  static func now() -> Double {
    var usage = rusage()
    #if os(Linux)
      getrusage(RUSAGE_SELF.rawValue, &usage)
    #else
      getrusage(RUSAGE_SELF, &usage)
    #endif
    func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
    return seconds(usage.ru_utime) + seconds(usage.ru_stime)
  }
}
