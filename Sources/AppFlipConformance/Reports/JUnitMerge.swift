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
        "\(file): written by \(SuiteInfo.name) \(Quoted.capped(version)), but \(otherFile) by "
          + "\(Quoted.capped(otherVersion)); merge the shards of one run, all run with one version."
      }
    }
  }

  /// The merged XML of these files.
  package static func merge(_ files: [URL]) throws(MergeError) -> String {
    var order: [MergedSuite] = []
    var suites: [String: MergedSuite] = [:]
    var seen = Set<String>()
    var firstVersion: (version: String, file: String)?
    for file in files {
      var suiteDepth = 1
      var suite: MergedSuite?
      var childStart = 0
      var propertyStart = 0
      var inProperties = false
      var testcase: (failure: Bool, error: Bool, skipped: Bool)?
      try scan(file) { element in
        if element.depth == 0 { suiteDepth = element.name == "testsuite" ? 0 : 1 }
        if element.depth == suiteDepth {
          guard element.name == "testsuite" else { return }
          let name = element["name"] ?? ""
          if let existing = suites[name] {
            suite = existing
          } else {
            let created = MergedSuite(attributes: element.attributes)
            suites[name] = created
            order.append(created)
            suite = created
          }
          return
        }
        guard let suite else { return }
        if element.depth == suiteDepth + 1 {
          childStart = element.start
          inProperties = element.name == "properties"
          guard element.name == "testcase" else { return }
          let classname = element["classname"] ?? ""
          let name = element["name"] ?? ""
          guard seen.insert(classname + "\u{0}" + name).inserted else {
            throw MergeError.duplicate(classname: classname, name: name, file: file.path)
          }
          suite.tests += 1
          suite.time += Double(element["time"] ?? "") ?? 0
          testcase = (false, false, false)
        } else if element.depth == suiteDepth + 2 {
          switch element.name {
          case "property" where inProperties:
            propertyStart = element.start
            guard element["name"] == "suite.version", let version = element["value"] else { break }
            if let first = firstVersion, first.version != version {
              throw MergeError.mixedVersions(
                file: file.path, version: version, otherFile: first.file, otherVersion: first.version)
            }
            firstVersion = firstVersion ?? (version, file.path)
          case "failure": testcase?.failure = true
          case "error": testcase?.error = true
          case "skipped": testcase?.skipped = true
          default: break
          }
        }
      } end: { depth, end, bytes in
        guard let current = suite else { return }
        if depth == suiteDepth {
          suite = nil
        } else if depth == suiteDepth + 1 {
          if inProperties {
            inProperties = false
            return
          }
          if let kinds = testcase {
            if kinds.failure {
              current.failures += 1
            } else if kinds.error {
              current.errors += 1
            } else if kinds.skipped {
              current.skipped += 1
            }
            testcase = nil
          }
          current.children.raw("    ")
          current.children.append(UnsafeBufferPointer(rebasing: bytes[childStart..<end]))
          current.children.raw("\n")
        } else if depth == suiteDepth + 2, inProperties {
          let property = Array(UnsafeBufferPointer(rebasing: bytes[propertyStart..<end]))
          if current.knownProperties.insert(property).inserted { current.properties.append(property) }
        }
      }
    }
    return render(order)
  }

  /// The merged document of these suites, every count recomputed.
  private static func render(_ suites: [MergedSuite]) -> String {
    let body = XMLBuffer(capacity: suites.reduce(4_096) { $0 + $1.children.count + 1_024 })
    let tests = suites.reduce(0) { $0 + $1.tests }
    let failures = suites.reduce(0) { $0 + $1.failures }
    let errors = suites.reduce(0) { $0 + $1.errors }
    let time = suites.reduce(0) { $0 + $1.time }
    body.raw("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n")
    body.raw("<testsuites name=\"\(SuiteInfo.name)\" tests=\"\(tests)\" failures=\"\(failures)\" errors=\"\(errors)\"")
    body.raw(" time=\"\(JUnitReport.seconds(time))\">\n")
    for suite in suites {
      var attributes = suite.attributes
      for (name, value) in [
        ("tests", String(suite.tests)), ("failures", String(suite.failures)), ("errors", String(suite.errors)),
        ("skipped", String(suite.skipped)), ("time", JUnitReport.seconds(suite.time)),
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
    var testcase: (name: String, depth: Int)?
    var problem: XMLScanner.Element?
    var kinds: (failure: Bool, error: Bool) = (false, false)
    var skipped: String?
    try scan(file) { element in
      if element.name == "testcase" {
        testcase = (element["name"] ?? "", element.depth)
        problem = nil
        kinds = (false, false)
        skipped = nil
      } else if let current = testcase, element.depth == current.depth + 1 {
        switch element.name {
        case "failure", "error":
          if element.name == "failure" { kinds.failure = true } else { kinds.error = true }
          if problem == nil { problem = element }
        case "skipped":
          if skipped == nil { skipped = element["message"] ?? "" }
        default: break
        }
      }
    } end: { depth, _, _ in
      guard let current = testcase, depth == current.depth else { return }
      testcase = nil
      var status: Status? = kinds.failure ? .failed : kinds.error ? .error : nil
      if problem?["type"] == "stale-waiver" { status = .stale }
      if problem?["type"] == "inconclusive" { status = .inconclusive }
      // A failure a waiver skipped ("waived: …") still fails: a waiver file updated from this report keeps it.
      if status == nil, skipped?.hasPrefix("waived: ") == true { status = .failed }
      guard let status else { return }
      results.append(
        VectorResult(
          id: current.name, area: "", file: file.path, level: .must, status: status,
          message: problem?["message"] ?? problem?["type"] ?? skipped ?? ""))
    }
    return results
  }

  /// Reads a file and scans it, turning a read or parse failure into a sentence about the file.
  private static func scan(
    _ file: URL, start: (XMLScanner.Element) throws -> Void,
    end: (_ depth: Int, _ endOffset: Int, _ bytes: UnsafeBufferPointer<UInt8>) throws -> Void
  ) throws(MergeError) {
    let data: Data
    do {
      data = try InputFile.read(file.path, as: .junit)
    } catch {
      throw .unreadable(file: file.path, reason: error.reason)
    }
    var text = String(decoding: data, as: UTF8.self)
    let isUTF8 = text.withUTF8 { decoded in
      data.withUnsafeBytes { raw in
        decoded.count == raw.count && (raw.isEmpty || memcmp(decoded.baseAddress!, raw.baseAddress!, raw.count) == 0)
      }
    }
    guard isUTF8 else {
      throw .unreadable(file: file.path, reason: "it is not UTF-8 text")
    }
    // Another root is refused once the whole file has been read, so a file too deep or not XML says so first.
    var otherRoot: String?
    do {
      try text.withUTF8 { bytes in
        try XMLScanner.scan(bytes) { element in
          if element.depth == 0 && element.name != "testsuites" && element.name != "testsuite" {
            otherRoot = element.name
          }
          if otherRoot == nil { try start(element) }
        } end: { depth, offset in
          if otherRoot == nil { try end(depth, offset, bytes) }
        }
      }
    } catch let error as MergeError {
      throw error
    } catch let error as XMLScanner.ParseError {
      throw .unreadable(file: file.path, reason: error.reason)
    } catch {
      throw .unreadable(file: file.path, reason: "it cannot be read")
    }
    if let otherRoot {
      throw .unreadable(file: file.path, reason: "the root element is <\(otherRoot)>, not <testsuites>")
    }
  }

  /// One suite being merged: a reference, so appending a shard's cases never copies the ones before.
  final class MergedSuite {
    let attributes: [(name: String, value: String)]
    var properties: [[UInt8]] = []
    var knownProperties = Set<[UInt8]>()
    /// The suite's elements other than its properties, as written, each on its own line.
    let children = XMLBuffer()
    var tests = 0
    var failures = 0
    var errors = 0
    var skipped = 0
    var time = 0.0

    init(attributes: [(name: String, value: String)]) {
      self.attributes = attributes
    }
  }
}
