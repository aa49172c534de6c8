import AppFlipConformance
import Foundation
import Testing

#if canImport(FoundationXML)
  import FoundationXML
#endif

/// One bad input or fault fed to the command: the files it finds, its arguments, and what it must answer.
struct BadInputCase: Sendable, CustomTestStringConvertible {
  /// What a case's folder holds before the run.
  enum Entry: Sendable {
    case file(String, Data)
    case folder(String)
    case symlink(String, to: String)
    /// A FIFO with a reader that keeps what the command writes (a report path).
    case fifo(String)
    /// A FIFO nobody ever opens: an input or report path the command must not wait on.
    case pipe(String)
    /// A file of this many bytes that occupy no disk (a sparse file), to pass a size limit without writing it.
    case sparse(String, Int)
    case hardLink(String, to: String)
  }

  var name: String
  var entries: [Entry]
  /// Arguments; `$D` is the case's folder. The three reports go to `$D/out/` unless `ownReports`.
  var arguments: [String]
  var exit: Int32
  /// Words the console must show (stdout and stderr together).
  var words: [String]
  /// Words it must not show.
  var absent: [String] = []
  var ownReports = false
  /// Words the JUnit report must hold.
  var junitWords: [String] = []
  /// The file entries the run may replace (a report path); every other one must be left as it was.
  var replaced: [String] = []
  /// The run must end within this many seconds (a bound far above "at once", as CI shares two cores).
  var within: Double?
  /// Files given that the run's implementation appends to, and the words each must hold afterwards.
  var grown: [String: String] = [:]

  var testDescription: String { name }
}

/// The BadInput suite (issue 10): bad vector, configuration and waiver files, command lines, report paths, adapters
/// and scale, each a case that asserts the exit code, the message's key words, and that every report written is valid.
///
/// With `APPFLIP_BADINPUT_REPORTS` set to a folder, every JUnit report a case writes is copied there, for `.ci/run` to
/// check against the junit-10 schema.
@Suite("BadInput", .serialized)
struct BadInputTests {
  /// Nothing a person reads may carry these: Foundation's error codes, Swift type names.
  static let neverShown = [
    "NSCocoaErrorDomain", "Code=", "(null)", "DecodingError", "Optional(", "Swift.", "CodingKeys", "\u{1B}",
  ]

  static let redirect = Fixtures.redirect

  /// A valid vector with this id.
  static func vector(_ id: String = "b/ok", level: String = "\"must\"", extra: String = "") -> String {
    """
    {"id": "\(id)", "description": "d", "spec": ["s"], "rules": ["AF-RE-2"], "level": \(level), \(extra)
     "incoming": {"params": [["client_id", "{client_id}"], ["scope", "devices"], ["state", "s1"], ["redirect_uri", "\(redirect)"]]},
     "outcome": {"result": "granted", "code": "c1"},
     "expect": {"verdict": "accepted", "authorization": {"clientId": "{client_id}", "redirectUri": "\(redirect)", "scopes": ["devices"]},
       "reply": {"base": "\(redirect)", "code": "c1", "state": "s1"}}}
    """
  }

  /// A vector file holding these vector texts.
  static func vectorFile(
    _ vectors: [String] = [vector()], head: String = #""schemaVersion": 1, "area": "b", "description": "d""#
  )
    -> Data
  {
    Data("{\(head), \"vectors\": [\(vectors.joined(separator: ","))]}".utf8)
  }

  static let ok = BadInputCase.Entry.file("ok.json", vectorFile())
  static let onlyOK = ["--no-bundled", "--vectors", "$D/ok.json"]

  // MARK: Vector files

  static func badVector(_ name: String, _ text: String, _ words: [String], absent: [String] = []) -> BadInputCase {
    BadInputCase(
      name: "vector file: \(name)", entries: [.file("v.json", Data(text.utf8)), ok],
      arguments: onlyOK + ["--vectors", "$D/v.json"], exit: 2, words: ["v.json"] + words, absent: absent,
      junitWords: ["invalid-vector"])
  }

  static let vectorCases: [BadInputCase] = [
    badVector("not JSON", "{", ["line 1, column 2", "not valid JSON"]),
    badVector("empty", "", ["empty"]),
    badVector("only spaces", "  \n ", ["empty"]),
    badVector(
      "trailing comma in the vectors", String(decoding: vectorFile([vector("b/t") + ","]), as: UTF8.self),
      ["trailing comma", "']'"]),
    badVector(
      "trailing comma in an object", #"{"schemaVersion": 1, "area": "b", "description": "d", "vectors": [],}"#,
      ["trailing comma", "'}'"]),
    badVector(
      "duplicate envelope key", #"{"schemaVersion": 1, "area": "b", "area": "c", "description": "d", "vectors": []}"#,
      ["\"area\" appears twice", "line 1"]),
    badVector(
      "duplicate key in a vector",
      String(decoding: vectorFile([vector("b/d", extra: #""level": "should","#)]), as: UTF8.self),
      ["vectors[0].level", "appears twice"]),
    badVector(
      "duplicate key spelled with an escape",
      #"{"schemaVersion": 1, "area": "b", "\u0061rea": "c", "description": "d", "vectors": []}"#,
      ["\"area\" appears twice"]),
    badVector(
      "duplicate key deep in expect",
      String(
        decoding: vectorFile([
          vector("b/e").replacingOccurrences(
            of: #""code": "c1", "state""#, with: #""code": "c1", "code": "c2", "state""#)
        ]), as: UTF8.self), ["vectors[0].expect.reply.code", "appears twice"]),
    badVector(
      "level in capitals", String(decoding: vectorFile([vector("b/l", level: "\"MUST\"")]), as: UTF8.self),
      ["level must be one of must, should, may", "\"MUST\"", "b/l"]),
    badVector(
      "level unknown", String(decoding: vectorFile([vector("b/l2", level: "\"critical\"")]), as: UTF8.self),
      ["level must be one of", "\"critical\""]),
    badVector(
      "verdict unknown",
      String(
        decoding: vectorFile([
          vector("b/v").replacingOccurrences(of: #""verdict": "accepted""#, with: #""verdict": "ok""#)
        ]), as: UTF8.self), ["verdict must be one of", "accepted", "\"ok\""]),
    badVector(
      "outcome result unknown",
      String(
        decoding: vectorFile([
          vector("b/o").replacingOccurrences(of: #""result": "granted""#, with: #""result": "yes""#)
        ]), as: UTF8.self), ["result must be one of", "granted", "\"yes\""]),
    badVector(
      "profile unknown",
      String(
        decoding: vectorFile(head: #""schemaVersion": 1, "profile": "web", "area": "b", "description": "d""#),
        as: UTF8.self), ["profile must be one of", "app", "\"web\""]),
    badVector(
      "fractional schemaVersion", #"{"schemaVersion": 1.5, "area": "b", "description": "d", "vectors": []}"#,
      ["schemaVersion", "whole number", "fraction"], absent: ["is not a vector file"]),
    badVector(
      "huge schemaVersion", #"{"schemaVersion": 1e30, "area": "b", "description": "d", "vectors": []}"#,
      ["schemaVersion", "whole number"]),
    badVector(
      "schemaVersion as a string", #"{"schemaVersion": "1", "area": "b", "description": "d", "vectors": []}"#,
      ["schemaVersion", "wrong type", "an integer"]),
    badVector(
      "unsupported schemaVersion", #"{"schemaVersion": 2, "area": "b", "description": "d", "vectors": []}"#,
      ["schemaVersion 2 is not supported"]),
    badVector(
      "unknown field", String(decoding: vectorFile([vector("b/u", extra: #""stat": 1,"#)]), as: UTF8.self),
      ["unknown field \"stat\"", "b/u"]),
    badVector(
      "missing area", #"{"schemaVersion": 1, "description": "d", "vectors": []}"#,
      ["\"area\"", "required but missing"], absent: ["a vector without a readable id"]),
    badVector(
      "vectors not an array", #"{"schemaVersion": 1, "area": "b", "description": "d", "vectors": {}}"#,
      ["vectors", "wrong type"]),
    badVector("top level an array", "[]", ["wrong type"]),
    badVector(
      "nesting 600 levels", String(repeating: "[", count: 600) + String(repeating: "]", count: 600),
      ["deeper than 512 levels"]),
    badVector("a raw line break in a string", "{\"area\": \"a\nb\"}", ["line 1", "line break", "escape it"]),
    badVector("a bad escape", #"{"area": "a\x"}"#, ["not a JSON escape"]),
    badVector("a short unicode escape", #"{"area": "\u12"}"#, ["four hex digits"]),
    badVector("single quotes", "{'area': 1}", ["field name in double quotes"]),
    badVector("a comment", "// vectors\n{}", ["line 1, column 1", "expected a value"]),
    badVector("NaN", #"{"schemaVersion": NaN}"#, ["expected a value"]),
    badVector("a leading zero", #"{"schemaVersion": 01}"#, ["must not start with 0"]),
    badVector("a string that never ends", #"{"area": "abc"#, ["never ends"]),
    badVector("two values", "{} {}", ["after the end"]),
    badVector(
      "error on line 3", "{\n  \"schemaVersion\": 1,\n  \"area\" \"b\"\n}", ["line 3, column 10", "expected ':'"]),
    badVector("a missing colon", #"{"area" 1}"#, ["expected ':'"]),
    badVector("true misspelled", #"{"x": tru}"#, ["expected a value"]),
    badVector("a minus without digits", #"{"x": -}"#, ["digit after '-'"]),
    badVector(
      "a wrong-type value of a megabyte",
      String(
        decoding: vectorFile([vector("b/big", extra: "\"tags\": \"\(String(repeating: "a", count: 1_000_000))\",")]),
        as: UTF8.self), ["tags", "wrong type", "characters"]),
    badVector(
      "an unknown field whose name carries escapes",
      String(decoding: vectorFile([vector("b/esc", extra: #""\u001b[31mred": 1,"#)]), as: UTF8.self),
      ["unknown field", "\\u{1B}"]),
    BadInputCase(
      name: "vector file: a folder without JSON files", entries: [.folder("empty"), ok],
      arguments: onlyOK + ["--vectors", "$D/empty"], exit: 2, words: ["holds no .json vector files"]),
    BadInputCase(
      name: "vector file: a missing path", entries: [ok], arguments: onlyOK + ["--vectors", "$D/missing.json"], exit: 2,
      words: ["missing.json", "no such file"]),
    BadInputCase(
      name: "vector file: the same id in two files",
      entries: [ok, .file("again.json", vectorFile())], arguments: onlyOK + ["--vectors", "$D/again.json"], exit: 2,
      words: ["again.json", "reuses an id", "b/ok"]),
    BadInputCase(
      name: "vector file: a byte-order mark is fine",
      entries: [.file("bom.json", Data([0xEF, 0xBB, 0xBF]) + vectorFile())],
      arguments: ["--no-bundled", "--vectors", "$D/bom.json"], exit: 0, words: ["1 passed"]),
  ]

  // MARK: Configuration files

  static func badConfig(_ name: String, _ text: String?, _ words: [String], path: String = "$D/c.json") -> BadInputCase
  {
    BadInputCase(
      name: "config: \(name)", entries: [ok] + (text.map { [.file("c.json", Data($0.utf8))] } ?? []),
      arguments: onlyOK + ["--config", path], exit: 2, words: words,
      absent: ["a vector without a readable id", "is not a vector file"], junitWords: ["invalid-file", "not run"])
  }

  static let configCases: [BadInputCase] = [
    badConfig("not JSON", "{", ["c.json", "line 1, column 2", "not valid JSON"]),
    badConfig("empty", "", ["c.json", "empty"]),
    badConfig(
      "duplicate key", #"{"clientId": "a", "clientId": "b"}"#,
      ["c.json", "\"clientId\" appears twice", "line 1, column 19"]),
    badConfig("trailing comma", #"{"clientId": "a",}"#, ["c.json", "trailing comma"]),
    badConfig(
      "trailing comma in the allow-list", #"{"allowedRedirectUris": ["\#(redirect)",]}"#, ["trailing comma", "']'"]),
    badConfig(
      "unknown field", #"{"clientID": "a"}"#,
      ["c.json", "field \"clientID\"", "unknown field", "did you mean \"clientId\""]),
    badConfig("clientId a number", #"{"clientId": 5}"#, ["clientId", "wrong type", "a string"]),
    badConfig(
      "allow-list a string", #"{"allowedRedirectUris": "\#(redirect)"}"#, ["allowedRedirectUris", "wrong type"]),
    badConfig("allow-list empty", #"{"allowedRedirectUris": []}"#, ["allowedRedirectUris", "at least one URL"]),
    badConfig("top level an array", "[]", ["c.json", "wrong type"]),
    badConfig("error on line 2", "{\n \"clientId\": x}", ["line 2, column 14"]),
    badConfig("nesting 600 levels", String(repeating: "[", count: 600), ["deeper than 512 levels"]),
    badConfig("a missing file", nil, ["c.json", "cannot be read", "no such file"]),
    badConfig("a folder", nil, ["it is a folder"], path: "$D"),
    badConfig(
      "a megabyte clientId of the wrong type", "{\"clientId\": [\"\(String(repeating: "z", count: 1_000_000))\"]}",
      ["clientId", "wrong type", "characters"]),
    badConfig("an escape in an unknown field name", #"{"\u001b]0;x\u0007": 1}"#, ["unknown field", "\\u{1B}"]),
    badConfig(
      "duplicate universalLink", #"{"universalLink": "https://a.example/", "universalLink": "https://b.example/"}"#,
      ["\"universalLink\" appears twice"]),
    badConfig("a raw control character", "{\"clientId\": \"a\u{1}b\"}", ["control character"]),
  ]

  // MARK: Waiver files

  static func badWaivers(_ name: String, _ text: String?, _ words: [String], path: String = "$D/w.json") -> BadInputCase
  {
    BadInputCase(
      name: "waivers: \(name)", entries: [ok] + (text.map { [.file("w.json", Data($0.utf8))] } ?? []),
      arguments: onlyOK + ["--waivers", path], exit: 2, words: words,
      absent: ["a vector without a readable id", "is not a vector file"], junitWords: ["invalid-file", "not run"])
  }

  static let waiverCases: [BadInputCase] = [
    badWaivers("not JSON", "{", ["w.json", "line 1, column 2"]),
    badWaivers("empty", "", ["w.json", "empty"]),
    badWaivers(
      "duplicate key in a waiver", #"{"schemaVersion": 1, "waivers": [{"id": "b/ok", "reason": "a", "reason": "b"}]}"#,
      ["waivers[0].reason", "appears twice"]),
    badWaivers(
      "duplicate schemaVersion", #"{"schemaVersion": 1, "schemaVersion": 1, "waivers": []}"#,
      ["\"schemaVersion\" appears twice"]),
    badWaivers("trailing comma", #"{"schemaVersion": 1, "waivers": [],}"#, ["trailing comma"]),
    badWaivers(
      "trailing comma in the list", #"{"schemaVersion": 1, "waivers": [{"id": "b/ok", "reason": "a"},]}"#,
      ["trailing comma", "']'"]),
    badWaivers(
      "unknown field", #"{"schemaVersion": 1, "waivers": [{"id": "b/ok", "reason": "a", "level": "MUST"}]}"#,
      ["field \"waivers[0].level\"", "unknown field \"level\""]),
    badWaivers("schemaVersion 2", #"{"schemaVersion": 2, "waivers": []}"#, ["schemaVersion", "only schemaVersion 1"]),
    badWaivers("schemaVersion a string", #"{"schemaVersion": "1", "waivers": []}"#, ["schemaVersion", "wrong type"]),
    badWaivers("fractional schemaVersion", #"{"schemaVersion": 1.5, "waivers": []}"#, ["schemaVersion", "fraction"]),
    badWaivers("waivers missing", #"{"schemaVersion": 1}"#, ["\"waivers\"", "required but missing"]),
    badWaivers("waivers not an array", #"{"schemaVersion": 1, "waivers": {}}"#, ["waivers", "wrong type"]),
    badWaivers(
      "an id of the wrong type", #"{"schemaVersion": 1, "waivers": [{"id": 7, "reason": "a"}]}"#,
      ["waivers[0].id", "wrong type"]),
    badWaivers(
      "a missing reason", #"{"schemaVersion": 1, "waivers": [{"id": "b/ok"}]}"#,
      ["waivers[0].reason", "required but missing"]),
    badWaivers("a missing file", nil, ["w.json", "no such file"]),
    badWaivers("a folder", nil, ["it is a folder"], path: "$D"),
    badWaivers("error on line 4", "{\n\"schemaVersion\": 1,\n\"waivers\": [\n{\"id\" 1}]}", ["line 4, column 7"]),
    badWaivers("nesting 600 levels", String(repeating: "{\"a\":", count: 600), ["deeper than 512 levels"]),
    BadInputCase(
      name: "waivers: one that matches no vector is printed even with --quiet",
      entries: [
        ok, .file("w.json", Data(#"{"schemaVersion": 1, "waivers": [{"id": "b/gone", "reason": "x"}]}"#.utf8)),
      ],
      arguments: onlyOK + ["--waivers", "$D/w.json", "--quiet"], exit: 2, words: ["b/gone", "matches no vector"]),
  ]

  // MARK: Command lines

  static func usage(_ name: String, _ arguments: [String], _ words: [String]) -> BadInputCase {
    BadInputCase(
      name: "command line: \(name)", entries: [ok], arguments: onlyOK + arguments, exit: 2, words: words,
      ownReports: true)
  }

  static let commandCases: [BadInputCase] = [
    usage("--report at the end", ["--report"], ["'--report' needs a value"]),
    usage("--report followed by an option", ["--report", "--quiet"], ["'--report' needs a value"]),
    usage("--report= empty", ["--report="], ["'--report' needs a value"]),
    usage("--markdown followed by --json", ["--markdown", "--json", "x.json"], ["'--markdown' needs a value"]),
    usage("--config at the end", ["--config"], ["'--config' needs a value"]),
    usage("--waivers followed by an option", ["--waivers", "--strict"], ["'--waivers' needs a value"]),
    usage("a misspelled option", ["--reprot", "x.xml"], ["Unknown option '--reprot'", "did you mean '--report'"]),
    usage("a timeout that is not a number", ["--timeout", "soon"], ["'--timeout'", "'soon'", "positive number"]),
    usage("shard 0 of 3", ["--shard", "0/3"], ["'--shard'", "'0/3'"]),
    usage("a level that is no level", ["--level", "MUSTS"], ["'--level'", "'MUSTS'", "must, should or may"]),
    usage("an option value with an escape", ["--shard", "\u{1B}[2J"], ["'--shard'", "\\u{1B}"]),
  ]

  // MARK: Report paths

  static func paths(
    _ name: String, _ entries: [BadInputCase.Entry], _ arguments: [String], exit: Int32, _ words: [String],
    replaced: [String] = []
  ) -> BadInputCase {
    BadInputCase(
      name: "report path: \(name)", entries: [ok] + entries, arguments: onlyOK + arguments, exit: exit, words: words,
      ownReports: true, replaced: replaced)
  }

  static let pathCases: [BadInputCase] = [
    paths(
      "a folder as the JUnit report", [.folder("dir")],
      ["--report", "$D/dir", "--json", "$D/r.json", "--markdown", "$D/r.md"], exit: 3,
      ["JUnit report", "it is a folder"]),
    paths(
      "a folder as the JSON results", [.folder("dir")], ["--report", "$D/r.xml", "--json", "$D/dir"], exit: 3,
      ["JSON results", "it is a folder"]),
    paths(
      "a folder as the Markdown summary", [.folder("dir")], ["--report", "$D/r.xml", "--markdown", "$D/dir"], exit: 3,
      ["Markdown summary", "it is a folder"]),
    paths(
      "a path under a regular file", [.file("plain", Data("x".utf8))],
      ["--report", "$D/plain/r.xml", "--json", "$D/r.json"], exit: 3, ["JUnit report", "not a folder"]),
    paths(
      "/dev/full", [], ["--report", "/dev/full", "--json", "$D/r.json", "--markdown", "$D/r.md"], exit: 3,
      ["/dev/full", "no space left"]),
    paths("/dev/null", [], ["--report", "/dev/null", "--json", "$D/r.json"], exit: 0, ["1 passed"]),
    paths(
      "a symlink to a report", [.file("real.xml", Data("old".utf8)), .symlink("link.xml", to: "real.xml")],
      ["--report", "$D/link.xml"], exit: 0, ["1 passed"], replaced: ["real.xml"]),
    paths(
      "a dangling symlink", [.symlink("link.xml", to: "made.xml")], ["--report", "$D/link.xml"], exit: 0, ["1 passed"]),
    paths("a new nested folder", [], ["--report", "$D/a/b/c/r.xml", "--json", "$D/x/y/r.json"], exit: 0, ["1 passed"]),
    paths(
      "an existing report is replaced", [.file("r.xml", Data(String(repeating: "old ", count: 100_000).utf8))],
      ["--report", "$D/r.xml"], exit: 0, ["1 passed"], replaced: ["r.xml"]),
    paths("a FIFO", [.fifo("pipe")], ["--report", "$D/pipe", "--json", "$D/r.json"], exit: 0, ["1 passed"]),
  ]

  // MARK: Adapters

  static func adapter(_ name: String, _ mode: String, exit: Int32, _ words: [String], absent: [String] = [])
    -> BadInputCase
  {
    BadInputCase(
      name: "adapter: \(name)", entries: [ok],
      arguments: onlyOK + ["--exec", Subprocess.python("Tests/Fixtures/subprocess/hostile_handler.py", [mode])],
      exit: exit, words: words, absent: absent)
  }

  static let adapterCases: [BadInputCase] = [
    adapter("an answer with a field twice", "dup-key", exit: 1, ["skipped.reason", "twice"]),
    adapter("a 100 000-character skip reason", "long-skip", exit: 0, ["100000 characters", "not shown"]),
    adapter(
      "a skip reason with terminal escapes and a forged summary", "esc-skip", exit: 0, ["\\u{1B}", "\\u{D}"],
      absent: ["\n435 vectors"]),
    adapter("two answers to one request", "two-answers", exit: 1, ["again after its answer", "error"]),
    adapter(
      "a line with no seq written as it exits, after the last answer", "exit-noise", exit: 0, ["1 passed"],
      absent: ["again after its answer"]),
    BadInputCase(
      name: "adapter: an implementation that spends 0.3 s exiting after the stop is not killed first", entries: [ok],
      arguments: onlyOK + [
        "--exec", Subprocess.python("Tests/Fixtures/subprocess/hostile_handler.py", ["slow-exit", "$D/marker"]),
      ], exit: 0, words: ["1 passed"], grown: ["marker": "cleaned up"]),
    adapter(
      "an adapter that exits while its child holds stdout", "exit-leaving-child", exit: 1,
      ["exited with status 4 before it answered", "leaving a child behind"]),
  ]

  // MARK: Scale

  static let scaleCases: [BadInputCase] = [
    BadInputCase(
      name: "scale: 3 000 vectors in one file load",
      entries: [.file("many.json", vectorFile((0..<3_000).map { vector("s/\($0)") }))],
      arguments: ["--no-bundled", "--vectors", "$D/many.json", "--validate"], exit: 0,
      words: ["3000 vectors valid, 0 problems"],
      ownReports: true),
    BadInputCase(
      name: "scale: 2 000 vectors with one duplicate id",
      entries: [.file("many.json", vectorFile((0..<2_000).map { vector("s/\($0 == 1_999 ? 0 : $0)") }))],
      arguments: ["--no-bundled", "--vectors", "$D/many.json", "--validate"], exit: 2,
      words: ["reuses an id", "\"s/0\""],
      ownReports: true),
    BadInputCase(
      name: "scale: deep XML for merge-junit",
      entries: [
        .file(
          "deep.xml",
          Data(
            ("<testsuites>" + String(repeating: "<a>", count: 30_000) + String(repeating: "</a>", count: 30_000)
              + "</testsuites>").utf8))
      ],
      arguments: ["merge-junit", "$D/merged.xml", "$D/deep.xml"], exit: 2,
      words: ["deep.xml", "deeper than 64 levels"], ownReports: true),
    BadInputCase(
      name: "scale: deep XML for --waivers-from",
      entries: [
        .file(
          "deep.xml", Data((String(repeating: "<a>", count: 30_000) + String(repeating: "</a>", count: 30_000)).utf8))
      ],
      arguments: ["--waivers-from", "$D/deep.xml", "--write-waivers", "$D/w.json"], exit: 2,
      words: ["deeper than 64 levels"], ownReports: true),
    BadInputCase(
      name: "scale: merge-junit of a file that is not XML",
      entries: [.file("bad.xml", Data("<testsuites><testsuite>".utf8))],
      arguments: ["merge-junit", "$D/merged.xml", "$D/bad.xml"], exit: 2,
      words: ["bad.xml", "not well-formed XML", "line"], ownReports: true),
  ]

  static let all =
    vectorCases + configCases + waiverCases + commandCases + pathCases + adapterCases + scaleCases + inputCases
    + outputCases + requestCases + messageCases

  @Test(
    "Holds at least 100 cases across vector, config and waiver files, command lines, report paths, adapters and scale")
  func enoughCases() {
    #expect(Self.all.count + SignalCases.count >= 100, "\(Self.all.count) cases")
    #expect(Set(Self.all.map(\.name)).count == Self.all.count, "case names are unique")
  }

  @Test("Answers bad input with the right exit code, a clear sentence and valid reports", arguments: BadInputTests.all)
  func badInput(_ testCase: BadInputCase) async throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("badinput-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    var reader: Task<Data, Never>?
    for entry in testCase.entries {
      switch entry {
      case .file(let name, let data): try data.write(to: folder.appendingPathComponent(name))
      case .folder(let name):
        try FileManager.default.createDirectory(
          at: folder.appendingPathComponent(name), withIntermediateDirectories: true)
      case .symlink(let name, let target):
        try FileManager.default.createSymbolicLink(
          atPath: folder.appendingPathComponent(name).path, withDestinationPath: target)
      case .fifo(let name):
        let path = folder.appendingPathComponent(name).path
        #expect(mkfifo(path, 0o644) == 0)
        reader = Task.detached { FileHandle(forReadingAtPath: path)?.readDataToEndOfFile() ?? Data() }
      case .pipe(let name): #expect(mkfifo(folder.appendingPathComponent(name).path, 0o644) == 0)
      case .sparse(let name, let size):
        #expect(FileManager.default.createFile(atPath: folder.appendingPathComponent(name).path, contents: nil))
        let handle = try FileHandle(forWritingTo: folder.appendingPathComponent(name))
        try handle.truncate(atOffset: UInt64(size))
        try handle.close()
      case .hardLink(let name, let target):
        try FileManager.default.linkItem(
          at: folder.appendingPathComponent(target), to: folder.appendingPathComponent(name))
      }
    }
    // Every file the case gives, but the reports it may replace, is left as it was (never replaced by a report).
    let kept = testCase.entries.compactMap { entry -> (String, Data)? in
      guard case .file(let name, let data) = entry, !testCase.replaced.contains(name) else { return nil }
      return (name, data)
    }
    let path = folder.path
    var arguments = testCase.arguments.map { $0.replacingOccurrences(of: "$D", with: path) }
    if !testCase.ownReports {
      arguments += [
        "--report", "\(path)/out/junit.xml", "--markdown", "\(path)/out/summary.md", "--json",
        "\(path)/out/results.json",
      ]
    }
    let captured = CapturedOutput()
    let started = Date()
    let code = await ConformanceCommand.run(arguments, output: captured.output)
    let seconds = Date().timeIntervalSince(started)
    let console = captured.out + "\n" + captured.err
    if let within = testCase.within { #expect(seconds < within, "the run took \(seconds) s") }
    for (name, data) in kept {
      #expect(
        FileManager.default.contents(atPath: folder.appendingPathComponent(name).path) == data, "\(name) was replaced")
    }
    for (name, words) in testCase.grown {
      let text = (try? String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)) ?? "(no file)"
      #expect(text.contains(words), "\(name) holds \(text.debugDescription), not \"\(words)\"")
    }

    #expect(code.rawValue == testCase.exit, "exit \(code.rawValue); console:\n\(console.prefix(2_000))")
    for word in testCase.words {
      #expect(console.contains(word), "missing \"\(word)\" in:\n\(console.prefix(2_000))")
    }
    for word in testCase.absent + Self.neverShown {
      #expect(!console.contains(word), "shows \"\(word)\":\n\(console.prefix(2_000))")
    }
    #expect(console.utf8.count < 100_000, "console output of \(console.utf8.count) bytes")

    // Every report written is valid and bounded.
    var written = try Self.reports(in: folder)
    if let reader {
      // Should the command never have opened the FIFO, opening it here releases the reader (it then reads nothing).
      for case .fifo(let name) in testCase.entries {
        let descriptor = open(folder.appendingPathComponent(name).path, O_WRONLY | O_NONBLOCK)
        if descriptor >= 0 { close(descriptor) }
      }
      let data = await reader.value
      let pipeCopy = folder.appendingPathComponent("from-fifo.xml")
      try data.write(to: pipeCopy)
      written.append(pipeCopy)
      #expect(!data.isEmpty, "the FIFO's reader got nothing")
      #expect(!FileManager.default.fileExists(atPath: path + "/.pipe"), "no temporary file was left")
    }
    for url in written {
      let data = try Data(contentsOf: url)
      #expect(data.count < 5_000_000, "\(url.lastPathComponent) is \(data.count) bytes")
      switch url.pathExtension {
      case "xml":
        let junit = try JUnitReader.read(String(decoding: data, as: UTF8.self))
        #expect((junit.counts["testcase"] ?? 0) >= 1, "\(url.lastPathComponent) has no test case")
        for word in testCase.junitWords where url.lastPathComponent == "junit.xml" {
          #expect(String(decoding: data, as: UTF8.self).contains(word), "JUnit lacks \"\(word)\"")
        }
        Self.keep(url, for: testCase)
      case "json":
        #expect((try? JSONSerialization.jsonObject(with: data)) != nil, "\(url.lastPathComponent) is not JSON")
      case "md":
        #expect(String(data: data, encoding: .utf8)?.isEmpty == false, "\(url.lastPathComponent) is empty")
      default:
        break
      }
    }
    if testCase.exit == 3 {
      #expect(
        written.contains { $0.pathExtension == "json" } || written.contains { $0.pathExtension == "xml" },
        "the reports on good paths are still written")
    }
    if !testCase.ownReports {
      #expect(written.contains { $0.lastPathComponent == "junit.xml" }, "no JUnit report")
      #expect(written.contains { $0.lastPathComponent == "results.json" }, "no JSON results")
      #expect(written.contains { $0.lastPathComponent == "summary.md" }, "no Markdown summary")
    }
    Self.checkLinks(testCase, folder: folder)
  }

  /// The reports a case wrote: regular files named `.xml`, `.json` (but not the inputs) or `.md`.
  static func reports(in folder: URL) throws -> [URL] {
    let inputs: Set<String> = [
      "ok.json", "v.json", "c.json", "w.json", "again.json", "bom.json", "many.json", "deep.xml", "bad.xml",
      "shard.xml", "other.xml", "page.xml", "big.json", "fuzz-findings.json", "a\nb.json",
    ]
    let all = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)?.allObjects ?? []
    return all.compactMap { $0 as? URL }.filter { url in
      var isFolder: ObjCBool = false
      guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder), !isFolder.boolValue,
        (try? FileManager.default.destinationOfSymbolicLink(atPath: url.path)) == nil,
        (try? FileManager.default.attributesOfItem(atPath: url.path)[.type] as? FileAttributeType) == .typeRegular
      else { return false }
      return ["xml", "json", "md"].contains(url.pathExtension) && !inputs.contains(url.lastPathComponent)
    }
  }

  /// Every symlink stays a symlink; one named as a report of a run that wrote its reports has the report at its target.
  static func checkLinks(_ testCase: BadInputCase, folder: URL) {
    for case .symlink(let name, let target) in testCase.entries {
      let link = folder.appendingPathComponent(name).path
      #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: link)) == target, "the link was replaced")
      guard name.hasSuffix(".xml"), [0, 3].contains(testCase.exit) else { continue }
      let report = (try? String(contentsOfFile: folder.appendingPathComponent(target).path, encoding: .utf8)) ?? ""
      #expect(report.contains("<testsuites"), "the link's target holds no report")
    }
  }

  /// Copies a JUnit report to `$APPFLIP_BADINPUT_REPORTS` for the schema check in `.ci/run`.
  static func keep(_ url: URL, for testCase: BadInputCase) {
    guard let folder = ProcessInfo.processInfo.environment["APPFLIP_BADINPUT_REPORTS"], !folder.isEmpty else { return }
    let safe = String(testCase.name.map { $0.isLetter || $0.isNumber ? $0 : "-" })
    let target = URL(fileURLWithPath: folder).appendingPathComponent("\(safe)-\(url.lastPathComponent)")
    try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    try? FileManager.default.removeItem(at: target)
    try? FileManager.default.copyItem(at: url, to: target)
  }
}
