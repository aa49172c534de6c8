import Foundation

#if canImport(FoundationXML)
  import FoundationXML
#endif

/// Merges JUnit files (the shards of one run) into one: suites of the same name are joined and every count is recomputed.
package enum JUnitMerge {
  /// Why files cannot be merged.
  package enum MergeError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A file is not well-formed XML, or not JUnit.
    case unreadable(file: String, reason: String)
    /// The same test case appears in two files.
    case duplicate(classname: String, name: String, file: String)

    /// One sentence that quotes the bad input and says what to do.
    package var description: String {
      switch self {
      case .unreadable(let file, let reason):
        "\(file): cannot be merged (\(reason)); pass JUnit files written by appflip-conformance."
      case .duplicate(let classname, let name, let file):
        "\(file): test case \"\(classname)\" \"\(name)\" is already in another file; merge each shard once."
      }
    }
  }

  /// The merged XML of these files.
  package static func merge(_ files: [URL]) throws(MergeError) -> String {
    var order: [String] = []
    var suites: [String: MergedSuite] = [:]
    var seen = Set<String>()
    for file in files {
      let root: JUnitNode
      do {
        root = try JUnitNode.parse(InputFile.read(file.path))
      } catch {
        throw .unreadable(file: file.path, reason: JUnitNode.reason(error))
      }
      let found = root.name == "testsuite" ? [root] : root.children.filter { $0.name == "testsuite" }
      guard root.name == "testsuites" || root.name == "testsuite" else {
        throw .unreadable(file: file.path, reason: "the root element is <\(root.name)>, not <testsuites>")
      }
      for suite in found {
        let name = suite.attributes["name"] ?? ""
        let merged: MergedSuite
        if let existing = suites[name] {
          merged = existing
        } else {
          merged = MergedSuite(attributes: suite.attributes)
          order.append(name)
          suites[name] = merged
        }
        for child in suite.children {
          if child.name == "properties" {
            for property in child.children where merged.knownProperties.insert(property).inserted {
              merged.properties.append(property)
            }
          } else {
            if child.name == "testcase" {
              let key = (child.attributes["classname"] ?? "") + "\u{0}" + (child.attributes["name"] ?? "")
              guard seen.insert(key).inserted else {
                throw .duplicate(
                  classname: child.attributes["classname"] ?? "", name: child.attributes["name"] ?? "", file: file.path)
              }
            }
            merged.children.append(child)
          }
        }
      }
    }
    var totals = Counts()
    var body = ""
    for name in order {
      let suite = suites[name]!
      let counts = Counts(suite.children)
      totals.add(counts)
      var attributes = suite.attributes
      attributes["tests"] = String(counts.tests)
      attributes["failures"] = String(counts.failures)
      attributes["errors"] = String(counts.errors)
      attributes["skipped"] = String(counts.skipped)
      attributes["time"] = JUnitReport.seconds(counts.time)
      let properties = suite.properties.isEmpty ? [] : [JUnitNode(name: "properties", children: suite.properties)]
      body += JUnitNode(name: "testsuite", attributes: attributes, children: properties + suite.children).xml(indent: 1)
    }
    return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
      + "<testsuites name=\"\(SuiteInfo.name)\" tests=\"\(totals.tests)\" failures=\"\(totals.failures)\" errors=\"\(totals.errors)\" time=\"\(JUnitReport.seconds(totals.time))\">\n"
      + body + "</testsuites>\n"
  }

  /// The test cases a JUnit report shows as failed, errored, waived (failed) or stale, as results (id = test case name),
  /// for adopting or updating waivers.
  package static func failedTestCases(in file: URL) throws(MergeError) -> [VectorResult] {
    let root: JUnitNode
    do {
      root = try JUnitNode.parse(InputFile.read(file.path))
    } catch {
      throw .unreadable(file: file.path, reason: JUnitNode.reason(error))
    }
    func testcases(_ node: JUnitNode) -> [JUnitNode] {
      node.name == "testcase" ? [node] : node.children.flatMap(testcases)
    }
    return testcases(root).compactMap { testcase in
      let kinds = testcase.children.map(\.name)
      var status: Status? = kinds.contains("failure") ? .failed : kinds.contains("error") ? .error : nil
      let problem = testcase.children.first { $0.name == "failure" || $0.name == "error" }
      if problem?.attributes["type"] == "stale-waiver" { status = .stale }
      // A failure a waiver skipped ("waived: …") still fails: a waiver file updated from this report keeps it.
      let skipped = testcase.children.first { $0.name == "skipped" }?.attributes["message"] ?? ""
      if status == nil, skipped.hasPrefix("waived: ") { status = .failed }
      guard let status else { return nil }
      return VectorResult(
        id: testcase.attributes["name"] ?? "", area: "", file: file.path, level: .must, status: status,
        message: problem?.attributes["message"] ?? problem?.attributes["type"] ?? skipped)
    }
  }

  /// One suite being merged: a reference, so appending a shard's cases never copies the ones before.
  final class MergedSuite {
    let attributes: [String: String]
    var properties: [JUnitNode] = []
    var knownProperties = Set<JUnitNode>()
    var children: [JUnitNode] = []

    init(attributes: [String: String]) {
      self.attributes = attributes
    }
  }

  /// Test case counts, recomputed from the elements.
  struct Counts {
    var tests = 0
    var failures = 0
    var errors = 0
    var skipped = 0
    var time = 0.0

    init() {}

    init(_ children: [JUnitNode]) {
      for testcase in children where testcase.name == "testcase" {
        tests += 1
        time += Double(testcase.attributes["time"] ?? "") ?? 0
        let kinds = Set(testcase.children.map(\.name))
        if kinds.contains("failure") {
          failures += 1
        } else if kinds.contains("error") {
          errors += 1
        } else if kinds.contains("skipped") {
          skipped += 1
        }
      }
    }

    mutating func add(_ other: Counts) {
      tests += other.tests
      failures += other.failures
      errors += other.errors
      skipped += other.skipped
      time += other.time
    }
  }
}

/// A small XML element tree, enough to read and rewrite JUnit (not Foundation's `XMLElement`, which Linux lacks outside FoundationXML).
struct JUnitNode: Hashable {
  var name: String
  var attributes: [String: String] = [:]
  var attributeOrder: [String] = []
  var children: [JUnitNode] = []
  var text = ""

  init(name: String, attributes: [String: String] = [:], children: [JUnitNode] = [], text: String = "") {
    self.name = name
    self.attributes = attributes
    self.attributeOrder = attributes.keys.sorted()
    self.children = children
    self.text = text
  }

  /// The deepest element nesting read; JUnit needs four levels, and a deeper document is refused before it can
  /// exhaust the stack.
  static let maxDepth = 64

  /// Why a document cannot be read, in words.
  struct ParseError: Error, Sendable, Hashable {
    var reason: String
  }

  /// Parses a document into its root element.
  static func parse(_ data: Data) throws(ParseError) -> JUnitNode {
    let builder = TreeBuilder()
    // A stream is parsed in chunks; a single chunk above 10 MB is refused by libxml2 (a "huge input"), which made
    // large shard reports unmergeable.
    let parser = XMLParser(stream: InputStream(data: data))
    parser.delegate = builder
    parser.shouldResolveExternalEntities = false
    let parsed = parser.parse()
    if builder.tooDeep {
      throw ParseError(reason: "elements nest deeper than \(maxDepth) levels, which no JUnit report does")
    }
    guard parsed, let root = builder.root else {
      let line = parser.lineNumber
      let column = parser.columnNumber
      throw ParseError(reason: "not well-formed XML near line \(line), column \(column)")
    }
    return root
  }

  /// A reason for a file that cannot be read or parsed, without Foundation's error codes.
  static func reason(_ error: any Error) -> String {
    switch error {
    case let error as ParseError: error.reason
    case let error as InputFile.ReadError: error.reason
    default: "it cannot be read"
    }
  }

  /// The element as indented XML, text and attributes escaped again.
  func xml(indent level: Int) -> String {
    let pad = String(repeating: "  ", count: level)
    let names =
      attributeOrder.filter { attributes[$0] != nil } + attributes.keys.filter { !attributeOrder.contains($0) }.sorted()
    let attributeText = names.map { " \($0)=\"\(XMLText.attribute(attributes[$0]!))\"" }.joined()
    let content = text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty ? "" : XMLText.content(text)
    if children.isEmpty && content.isEmpty { return "\(pad)<\(name)\(attributeText)/>\n" }
    if children.isEmpty { return "\(pad)<\(name)\(attributeText)>\(content)</\(name)>\n" }
    return "\(pad)<\(name)\(attributeText)>\n" + children.map { $0.xml(indent: level + 1) }.joined()
      + "\(pad)</\(name)>\n"
  }
}

/// Builds an `JUnitNode` tree from parser events.
private final class TreeBuilder: NSObject, XMLParserDelegate {
  var stack: [JUnitNode] = []
  var root: JUnitNode?
  var tooDeep = false

  func parser(
    _ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
    attributes: [String: String] = [:]
  ) {
    guard stack.count < JUnitNode.maxDepth else {
      tooDeep = true
      stack = []
      parser.abortParsing()
      return
    }
    stack.append(JUnitNode(name: name, attributes: attributes))
  }

  func parser(_ parser: XMLParser, foundCharacters string: String) {
    guard !stack.isEmpty else { return }
    stack[stack.count - 1].text += string
  }

  func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
    guard let element = stack.popLast() else { return }
    if stack.isEmpty {
      root = element
    } else {
      stack[stack.count - 1].children.append(element)
    }
  }
}
