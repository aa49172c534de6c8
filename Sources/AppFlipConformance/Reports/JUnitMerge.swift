import AppFlip
import Foundation

/// Merges JUnit files (the shards of one run) into one: suites of the same name are joined and every count is recomputed.
///
/// Files are read as bytes in one pass (`XMLScanner`): each test case is copied as it was written, so the merge of
/// 100 000 test cases takes well under a second and memory linear in the input.
package enum JUnitMerge {
  /// Why files cannot be merged, or read for their failures.
  package enum MergeError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A file is not well-formed XML, or not JUnit.
    case unreadable(file: String, reason: String)
    /// The same test case appears in two files.
    case duplicate(classname: String, name: String, file: String)
    /// Two files were written by different versions of the suite, whose vectors and verdicts differ.
    case mixedVersions(file: String, version: String, otherFile: String, otherVersion: String)

    /// One sentence that quotes the bad input and says what to do.
    package var description: String {
      switch self {
      case .unreadable(let file, let reason):
        "\(file): cannot be read as a JUnit report (\(reason)); pass a JUnit file appflip-conformance wrote."
      case .duplicate(let classname, let name, let file):
        "\(file): test case \"\(classname)\" \"\(name)\" is already in another file; merge each shard once."
      case .mixedVersions(let file, let version, let otherFile, let otherVersion):
        "\(file): written by \(SuiteInfo.name) \(Quoted.string(version)), but \(otherFile) by "
          + "\(Quoted.string(otherVersion)); merge the shards of one run, all run with one version."
      }
    }
  }

  /// The merged XML of these files.
  package static func merge(_ files: [URL]) throws(MergeError) -> String {
    var order: [MergedSuite] = []
    var suites: [String: MergedSuite] = [:]
    var seen = Set<String>()
    var firstVersion: (version: String, file: String)?
    var all = RunSummary([])
    for file in files {
      var (root, text) = try read(file)
      for element in root.name == "testsuite" ? [root] : root.children where element.name == "testsuite" {
        let name = element["name"] ?? ""
        let suite = suites[name] ?? MergedSuite(attributes: element.attributes)
        if suites.updateValue(suite, forKey: name) == nil { order.append(suite) }
        for child in element.children {
          if child.name == "properties" {
            for property in child.children {
              if property.name == "property", property["name"] == "suite.version", let version = property["value"] {
                if let first = firstVersion, first.version != version {
                  throw .mixedVersions(
                    file: file.path, version: version, otherFile: first.file, otherVersion: first.version)
                }
                firstVersion = firstVersion ?? (version, file.path)
              }
              let bytes = text.withUTF8 { Array($0[property.range]) }
              if suite.knownProperties.insert(bytes).inserted { suite.properties.append(bytes) }
            }
            continue
          }
          if child.name == "testcase" {
            let (classname, name) = (child["classname"] ?? "", child["name"] ?? "")
            guard seen.insert(classname + "\u{0}" + name).inserted else {
              throw .duplicate(classname: classname, name: name, file: file.path)
            }
            let status: Status =
              child.has("failure") ? .failed : child.has("error") ? .error : child.has("skipped") ? .skipped : .passed
            suite.summary.count(status)
            all.count(status)
            suite.time += Double(child["time"] ?? "") ?? 0
          }
          suite.children.raw("    ")
          text.withUTF8 { suite.children.append(UnsafeBufferPointer(rebasing: $0[child.range])) }
          suite.children.raw("\n")
        }
      }
    }
    return render(order, all)
  }

  /// The merged document of these suites, every count recomputed; `all` counts every suite's cases.
  private static func render(_ suites: [MergedSuite], _ all: RunSummary) -> String {
    let body = XMLBuffer(capacity: suites.reduce(4_096) { $0 + $1.children.count + 1_024 })
    body.raw("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"\(SuiteInfo.name)")
    JUnitReport.counts(all, into: body, skipped: false)
    body.raw(" time=\"\(JUnitReport.seconds(suites.reduce(0) { $0 + $1.time }))\">\n")
    for suite in suites {
      var attributes = suite.attributes
      for (name, value) in [
        ("tests", String(suite.summary.total)), ("failures", String(suite.summary.failed)),
        ("errors", String(suite.summary.errors)), ("skipped", String(suite.summary.skipped)),
        ("time", JUnitReport.seconds(suite.time)),
      ] {
        if let index = attributes.firstIndex(where: { $0.name == name }) {
          attributes[index].value = value
        } else {
          attributes.append((name, value))
        }
      }
      body.raw("  <testsuite")
      for (name, value) in attributes {
        body.raw(" \(name)=\"")
        body.attribute(value)
        body.raw("\"")
      }
      body.raw(">\n")
      if !suite.properties.isEmpty {
        body.raw("    <properties>\n")
        for property in suite.properties {
          body.raw("      ")
          body.raw(property)
          body.raw("\n")
        }
        body.raw("    </properties>\n")
      }
      body.append(suite.children)
      body.raw("  </testsuite>\n")
    }
    body.raw("</testsuites>\n")
    return body.string
  }

  /// The test cases a JUnit report shows as failed, errored, waived (failed) or stale, as results (id = test case name),
  /// for adopting or updating waivers. Reads reports of any version (with or without per-vector properties).
  package static func failedTestCases(in file: URL) throws(MergeError) -> [VectorResult] {
    var results: [VectorResult] = []
    func visit(_ element: XMLScanner.Element) {
      guard element.name == "testcase" else {
        for child in element.children { visit(child) }
        return
      }
      let problem = element.children.first { $0.name == "failure" || $0.name == "error" }
      let skipped = element.children.first { $0.name == "skipped" }.map { $0["message"] ?? "" }
      var status: Status? = element.has("failure") ? .failed : element.has("error") ? .error : nil
      if problem?["type"] == "stale-waiver" { status = .stale }
      if problem?["type"] == "inconclusive" { status = .inconclusive }
      // A failure a waiver skipped ("waived: …") still fails: a waiver file updated from this report keeps it.
      if status == nil, skipped?.hasPrefix("waived: ") == true { status = .failed }
      guard let status else { return }
      results.append(
        VectorResult(
          id: element["name"] ?? "", area: "", file: file.path, level: .must, status: status,
          message: problem?["message"] ?? problem?["type"] ?? skipped ?? ""))
    }
    visit(try read(file).root)
    return results
  }

  /// A file's text and its root element, turning a read or parse failure into a sentence about the file.
  private static func read(_ file: URL) throws(MergeError) -> (root: XMLScanner.Element, text: String) {
    let data: Data
    do {
      data = try InputFile.read(file.path, as: .junit)
    } catch {
      throw .unreadable(file: file.path, reason: error.reason)
    }
    guard let text = Bytes.utf8String(Array(data)) else {
      throw .unreadable(file: file.path, reason: "it is not UTF-8 text")
    }
    let root: XMLScanner.Element
    do {
      root = try XMLScanner.root(of: text)
    } catch {
      throw .unreadable(file: file.path, reason: error.reason)
    }
    guard root.name == "testsuites" || root.name == "testsuite" else {
      throw .unreadable(file: file.path, reason: "the root element is <\(root.name)>, not <testsuites>")
    }
    return (root, text)
  }

  /// One suite being merged: a reference, so appending a shard's cases never copies the ones before.
  final class MergedSuite {
    let attributes: [(name: String, value: String)]
    var properties: [[UInt8]] = []
    var knownProperties = Set<[UInt8]>()
    /// The suite's elements other than its properties, as written, each on its own line.
    let children = XMLBuffer()
    /// The counts of its cases, by the element each holds (`failure`, `error`, `skipped`, none).
    var summary = RunSummary([])
    var time = 0.0

    init(attributes: [(name: String, value: String)]) {
      self.attributes = attributes
    }
  }
}
