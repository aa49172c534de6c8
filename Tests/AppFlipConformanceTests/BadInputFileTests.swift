import AppFlipConformance
import Foundation
import Testing

/// Issue 28's cases of the BadInput suite: inputs that are no regular file or too large, reports that would land on an
/// input or on each other, request options that would forge a header, and the messages that used to be opaque.
extension BadInputTests {
  static let config = BadInputCase.Entry.file("c.json", Data(#"{"clientId": "cid"}"#.utf8))
  static let waivers = BadInputCase.Entry.file("w.json", Data(#"{"schemaVersion": 1, "waivers": []}"#.utf8))

  /// A JUnit report of one passing test case, written by `version`.
  static func junit(version: String = "0.1.0") -> Data {
    Data(
      """
      <testsuites><testsuite name="b" tests="1"><properties><property name="suite.version" value="\(version)"/>
      </properties><testcase classname="appflip.b" name="b/ok" time="0.001"/></testsuite></testsuites>
      """.utf8)
  }

  // MARK: Inputs: never waited on, never read past a stated limit

  static func input(
    _ name: String, _ entries: [BadInputCase.Entry], _ arguments: [String], _ words: [String],
    own: Bool = false, junit: [String] = []
  ) -> BadInputCase {
    BadInputCase(
      name: "input: \(name)", entries: entries, arguments: arguments, exit: 2, words: words,
      absent: ["a vector without a readable id"], ownReports: own, junitWords: junit, within: 10)
  }

  static let fifo = "named pipe (FIFO), not a regular file"
  static let device = "it is a device, not a regular file"

  static let inputCases: [BadInputCase] = [
    input(
      "a FIFO in a vector folder", [.folder("d"), .file("d/ok.json", vectorFile()), .pipe("d/x.json")],
      ["--no-bundled", "--vectors", "$D/d"], ["d/x.json", fifo], junit: ["invalid-vector"]),
    input("a FIFO as --vectors", [ok, .pipe("v.json")], onlyOK + ["--vectors", "$D/v.json"], ["v.json", fifo]),
    input(
      "a FIFO as --config", [ok, .pipe("c.json")], onlyOK + ["--config", "$D/c.json"], ["c.json", fifo],
      junit: ["invalid-file"]),
    input("a FIFO as --waivers", [ok, .pipe("w.json")], onlyOK + ["--waivers", "$D/w.json"], ["w.json", fifo]),
    input(
      "a FIFO as --waivers-from", [.pipe("r.xml")], ["--waivers-from", "$D/r.xml", "--write-waivers", "$D/out.json"],
      ["r.xml", fifo], own: true),
    input(
      "a FIFO as a merge-junit shard", [.file("shard.xml", junit()), .pipe("p.xml")],
      ["merge-junit", "$D/merged.xml", "$D/shard.xml", "$D/p.xml"], ["p.xml", fifo], own: true),
    input(
      "a FIFO as --cacert", [ok, .pipe("ca.pem")],
      ["--endpoint", "https://127.0.0.1:9/", "--cacert", "$D/ca.pem"], ["--cacert", fifo], own: true),
    input("/dev/zero as --vectors", [ok], onlyOK + ["--vectors", "/dev/zero"], ["/dev/zero", device]),
    input("/dev/urandom as --vectors", [ok], onlyOK + ["--vectors", "/dev/urandom"], ["/dev/urandom", device]),
    input(
      "a vector folder's symlink to /dev/zero",
      [
        .folder("d"), .file("d/ok.json", vectorFile()),
        .symlink("d/z.json", to: "/dev/zero"),
      ], ["--no-bundled", "--vectors", "$D/d"], ["d/z.json", device]),
    input("/dev/zero as --config", [ok], onlyOK + ["--config", "/dev/zero"], ["/dev/zero", device]),
    input("/dev/zero as --waivers", [ok], onlyOK + ["--waivers", "/dev/zero"], ["/dev/zero", device]),
    input(
      "/dev/zero as --waivers-from", [], ["--waivers-from", "/dev/zero", "--write-waivers", "$D/out.json"],
      ["/dev/zero", device], own: true),
    input(
      "/dev/zero as a merge-junit shard", [], ["merge-junit", "$D/merged.xml", "/dev/zero"], ["/dev/zero", device],
      own: true),
    input(
      "/dev/zero as --cookie-file", [], ["--endpoint", "http://127.0.0.1:9/", "--cookie-file", "/dev/zero"],
      ["--cookie-file", device], own: true),
    input(
      "/dev/zero as --cacert", [], ["--endpoint", "https://127.0.0.1:9/", "--cacert", "/dev/zero"],
      ["--cacert", device], own: true),
    input(
      "a missing --cacert, checked before any request", [],
      [
        "--endpoint", "https://127.0.0.1:9/", "--cacert",
        "$D/none.pem",
      ], ["--cacert", "none.pem", "no such file"], own: true),
    input(
      "a vector file over 256 MB, refused before it is read", [ok, .sparse("big.json", 300 << 20)],
      onlyOK + ["--vectors", "$D/big.json"], ["big.json", "larger than the 256 MB a vector file may hold"]),
    input(
      "a configuration over 4 MB", [ok, .sparse("c.json", 5 << 20)], onlyOK + ["--config", "$D/c.json"],
      ["c.json", "larger than the 4 MB a configuration file may hold"]),
  ]

  // MARK: Outputs: resolved and checked against every input and every other output before anything runs

  static func output(
    _ name: String, _ entries: [BadInputCase.Entry], _ arguments: [String], _ words: [String]
  ) -> BadInputCase {
    BadInputCase(
      name: "output: \(name)", entries: entries, arguments: arguments, exit: 2, words: words, ownReports: true,
      within: 10)
  }

  static let outputCases: [BadInputCase] = [
    output(
      "--json on the vector file", [ok], ["--no-bundled", "--vectors", "$D/ok.json", "--json", "$D/ok.json"],
      ["--json", "is the same file as --vectors", "ok.json"]),
    output(
      "--report on the configuration", [ok, config], onlyOK + ["--config", "$D/c.json", "--report", "$D/c.json"],
      ["--report", "same file as --config"]),
    output(
      "--markdown on the waiver file", [ok, waivers], onlyOK + ["--waivers", "$D/w.json", "--markdown", "$D/w.json"],
      ["--markdown", "same file as --waivers"]),
    output(
      "--json on a file in a vector folder", [.folder("d"), .file("d/ok.json", vectorFile())],
      ["--no-bundled", "--vectors", "$D/d", "--json", "$D/d/./ok.json"], ["--json", "same file as --vectors"]),
    output(
      "two reports on one path spelled two ways", [ok], onlyOK + ["--report", "$D/r.xml", "--json", "$D/./r.xml"],
      ["--report", "--json", "are the same file"]),
    output(
      "a report through a symlink onto another report", [ok, .symlink("link.xml", to: "r.xml")],
      onlyOK + ["--report", "$D/link.xml", "--markdown", "$D/r.xml"], ["--report", "--markdown", "same file"]),
    output(
      "a report hard-linked to the vector file", [ok, .hardLink("h.json", to: "ok.json")],
      onlyOK + ["--json", "$D/h.json"], ["--json", "same file as --vectors"]),
    output(
      "--write-waivers on the JUnit report", [ok], onlyOK + ["--report", "$D/r.xml", "--write-waivers", "$D/r.xml"],
      ["--write-waivers", "--report", "same file"]),
    output(
      "a report path that is a symlink loop", [ok, .symlink("a.xml", to: "b.xml"), .symlink("b.xml", to: "a.xml")],
      onlyOK + ["--report", "$D/a.xml"], ["--report", "a.xml", "symlink loop"]),
    output(
      "merge-junit's output on a shard", [.file("shard.xml", junit())],
      ["merge-junit", "$D/shard.xml", "$D/shard.xml"], ["merge-junit's output", "same file as merge-junit"]),
    output(
      "fuzz findings on the configuration", [.file("fuzz-findings.json", Data(#"{"clientId": "cid"}"#.utf8))],
      ["fuzz", "--links", "1", "--config", "$D/fuzz-findings.json", "--out", "$D"],
      ["--out", "same file as --config"]),
    BadInputCase(
      name: "output: a FIFO report nobody reads is refused at once, the other reports written",
      entries: [ok, .pipe("p.xml")],
      arguments: onlyOK + ["--report", "$D/p.xml", "--json", "$D/r.json"], exit: 3,
      words: ["p.xml", "a named pipe (FIFO) that nobody reads"], ownReports: true, within: 10),
    BadInputCase(
      name: "output: --jobs 1000000 on one vector starts one adapter", entries: [ok],
      arguments: onlyOK + ["--jobs", "1000000"], exit: 0, words: ["1 passed"], within: 10),
  ]

  // MARK: Requests: only what the user meant goes out on the wire

  static func request(_ name: String, _ arguments: [String], _ words: [String]) -> BadInputCase {
    BadInputCase(
      name: "request: \(name)", entries: [],
      arguments: ["--endpoint", "http://127.0.0.1:9/authorize", "--no-preflight"] + arguments, exit: 2, words: words,
      ownReports: true)
  }

  static let requestCases: [BadInputCase] = [
    request("a header value with CR LF", ["--header", "X-A: 1\r\nX-Injected: 2"], ["--header", "CR, LF or NUL"]),
    request("a header value with a lone LF", ["--header", "X-A: 1\nHost: evil"], ["--header", "CR, LF or NUL"]),
    request("a header value with NUL", ["--header", "X-A: 1\u{0}2"], ["--header", "CR, LF or NUL"]),
    request("a header name that is no token", ["--header", "X A: 1"], ["--header", "'Name: value'"]),
    request("a cookie with CR LF", ["--cookie", "s=1\r\nX-Injected: 2"], ["--cookie", "CR, LF or NUL"]),
    request("a cookie without a value", ["--cookie", "novalue"], ["--cookie", "'novalue'", "name=value"]),
    request("a cookie without a name", ["--cookie", "=v"], ["--cookie", "name=value"]),
    request("two Host headers", ["--header", "Host: a", "--header", "host: b"], ["one Host header at most"]),
  ]

  // MARK: Messages: one sentence naming file, vector, field and the fix

  static func message(
    _ name: String, _ data: Data, _ words: [String], absent: [String] = [], option: String = "--vectors",
    file: String = "v.json"
  ) -> BadInputCase {
    BadInputCase(
      name: "message: \(name)", entries: [ok, .file(file, data)], arguments: onlyOK + [option, "$D/\(file)"], exit: 2,
      words: [file] + words,
      absent: ["a number cannot be read", "cannot be read as this format", "\\u{FFFD}"] + absent)
  }

  static let oneVector = String(decoding: vectorFile([vector("m/1")]), as: UTF8.self)

  static let messageCases: [BadInputCase] = [
    message(
      "invalid UTF-8 in a string", Data(oneVector.utf8).replacing(Data("\"d\"".utf8), with: Data([34, 100, 0xFF, 34])),
      ["line 1", "field \"description\"", "byte 0xFF, which is not UTF-8", "save the file as UTF-8"]),
    message(
      "half a surrogate pair in an id", Data(oneVector.replacingOccurrences(of: "m/1", with: #"\ud800m"#).utf8),
      ["field \"vectors[0].id\"", #""\ud800" is half of a UTF-16 surrogate pair"#, "write the character itself"]),
    message(
      "a low surrogate alone", Data(oneVector.replacingOccurrences(of: "\"d\"", with: #""\udc00""#).utf8),
      [#""\udc00" is half of a UTF-16 surrogate pair"#]),
    message(
      "schemaVersion 1e400",
      Data(oneVector.replacingOccurrences(of: "\"schemaVersion\": 1", with: "\"schemaVersion\": 1e400").utf8),
      ["field \"schemaVersion\"", "\"1e400\" is beyond what a JSON reader holds", "line 1"]),
    message(
      "a UTF-16 file with a byte-order mark", oneVector.data(using: .utf16)!,
      ["UTF-16 (it starts with a UTF-16 byte-order mark), not UTF-8; save it as UTF-8"]),
    message(
      "a UTF-16 file without a byte-order mark", oneVector.data(using: .utf16LittleEndian)!,
      ["UTF-16 or UTF-32", "save it as UTF-8"]),
    message(
      "a configuration in UTF-16", #"{"clientId": "cid"}"#.data(using: .utf16)!, ["UTF-16", "save it as UTF-8"],
      option: "--config", file: "c.json"),
    message(
      "a capped quote states the value's own length",
      Data(oneVector.replacingOccurrences(of: "\"must\"", with: "\"\(String(repeating: "m", count: 300))\"").utf8),
      ["level must be one of", "[300 characters, 60 not shown]"], absent: ["[274 characters"]),
    message(
      "a capped quote of escaped characters",
      Data(
        oneVector.replacingOccurrences(of: "\"must\"", with: "\"\(String(repeating: "é\\u0001", count: 150))\"").utf8),
      ["[300 characters, "], absent: ["[1052 characters"]),
    BadInputCase(
      name: "message: a vector file named with a line break",
      entries: [.folder("nl"), .file("nl/a\nb.json", Data("{".utf8))],
      arguments: ["--no-bundled", "--vectors", "$D/nl"], exit: 2, words: ["nl/a\\u{A}b.json: line 1"],
      absent: ["a\nb.json"]),
    BadInputCase(
      name: "message: --vectors given a symlink to a folder",
      entries: [
        .folder("d"), .file("d/ok.json", vectorFile()),
        .symlink("dl", to: "d"),
      ],
      arguments: ["--no-bundled", "--vectors", "$D/dl"], exit: 0, words: ["1 passed"],
      absent: ["holds no .json vector files"]),
    BadInputCase(
      name: "message: merge-junit of shards of two suite versions",
      entries: [.file("shard.xml", junit()), .file("other.xml", junit(version: "9.9.9"))],
      arguments: ["merge-junit", "$D/merged.xml", "$D/shard.xml", "$D/other.xml"], exit: 2,
      words: ["other.xml: written by appflip-conformance \"9.9.9\"", "shard.xml by \"0.1.0\"", "one version"],
      ownReports: true),
    BadInputCase(
      name: "message: --waivers-from an HTML page",
      entries: [.file("page.xml", Data("<html><head><title>CI</title></head><body><p>ok</p></body></html>".utf8))],
      arguments: ["--waivers-from", "$D/page.xml", "--write-waivers", "$D/out.json"], exit: 2,
      words: ["page.xml", "the root element is <html>, not <testsuites>"], absent: ["Waivers for 0"], ownReports: true),
    BadInputCase(
      name: "message: an adapter that closes its stdin is an error at once, not after its timeout", entries: [ok],
      arguments: onlyOK + ["--exec", "sh -c 'exec 0<&-; sleep 30'", "--timeout", "20"], exit: 1,
      words: ["closed its standard input"], within: 10),
    BadInputCase(
      name: "scale: 100 000 invalid vectors are summarized, each error printed once",
      entries: [.file("many.json", vectorFile((0..<100_000).map { #"{"id": "i/\#($0)", "x": 1}"# }))],
      arguments: ["--no-bundled", "--vectors", "$D/many.json"], exit: 2,
      words: ["99900 more vectors cannot be used", "fix the 100 listed"]),
  ]
}
