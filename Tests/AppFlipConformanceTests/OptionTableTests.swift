import Foundation
import Testing

@testable import AppFlipConformance

@Suite("The one argument parser (OptionTable)")
struct OptionTableTests {
  struct Options: Equatable {
    var root: String?
    var update = false
    var only: [String] = []
  }

  private let table = OptionTable<Options>([
    .init(["--root"], "DIR", "the checkout") { $0.root = $1 },
    .init(["--update", "--update-manifest"], nil, "record new ids\nand rewrite the coverage") { options, _ in
      options.update = true
    },
    .init(["--only"], "F", "one figure (repeatable)") { $0.only.append($1) },
  ])

  private func parse(_ arguments: [String]) throws(UsageError) -> Options? {
    var options = Options()
    return try table.parse(arguments, into: &options) ? options : nil
  }

  @Test("Flags and values set the options in order; a value may be joined with '='; other arguments only where taken")
  func parses() throws {
    let parsed = try parse(["--update-manifest", "--root", "r", "--only", "a", "--only=b"])
    #expect(parsed == Options(root: "r", update: true, only: ["a", "b"]))
    #expect(try parse([]) == Options())
    var files: [String] = []
    var options = Options()
    try table.parse(["a", "--root", "r", "b"], into: &options, positional: { files.append($0) })
    #expect(files == ["a", "b"] && options.root == "r")
    #expect(throws: UsageError.unknownOption("a", hint: nil)) { try parse(["a"]) }
  }

  @Test("An unknown option, a missing value and a flag given a value are refused, quoting the input")
  func errors() {
    #expect(throws: UsageError.unknownOption("--rot", hint: "--root")) { try parse(["--rot", "x"]) }
    #expect(throws: UsageError.unknownOption("\u{1B}[2J", hint: nil)) { try parse(["\u{1B}[2J"]) }
    #expect(throws: UsageError.unknownOption("--update=yes", hint: "--update")) { try parse(["--update=yes"]) }
    #expect(throws: UsageError.missingValue(option: "--root")) { try parse(["--root"]) }
    #expect(throws: UsageError.missingValue(option: "--root")) { try parse(["--root", "--update"]) }
    #expect(throws: UsageError.missingValue(option: "--only")) { try parse(["--only="]) }
  }

  @Test("merge refuses an option it does not take before reading that option's value")
  func mergeRefusesFirst() {
    #expect(throws: UsageError.conflict("--param", "merge, which takes --report, --markdown and --json")) {
      try CommandLineOptions.parse(["merge", "--param", "x"])
    }
  }

  @Test("Every option whose help says 'With --endpoint:' or 'With --token-endpoint:' is refused without that option")
  func dependentOptionsNeedTheirEndpoint() {
    let samples = ["--login-timeout": "5", "--code-lifetime": "5", "--token-auth": "basic", "--header": "a: b"]
    let dependent = CommandLineOptions.table.options.filter {
      ($0.help.hasPrefix("With --endpoint:") && $0.names != ["--token-endpoint"])
        || $0.help.hasPrefix("With --token-endpoint:")
    }
    #expect(dependent.count >= 12)
    for option in dependent {
      let name = option.names[0]
      let arguments = [name] + (option.value == nil ? [] : [samples[name] ?? "a=b"])
      do throws(UsageError) {
        _ = try CommandLineOptions.parse(arguments)
        Issue.record("\(arguments) was accepted without its endpoint")
      } catch {
        guard case .conflict(let refused, _) = error else {
          Issue.record("\(arguments): \(error), not the missing endpoint")
          continue
        }
        #expect(refused == name)
      }
    }
  }

  @Test("-h or --help anywhere asks for help, and the help lists every option from the same table, aligned")
  func help() throws {
    #expect(try parse(["--bogus", "-h"]) == nil)
    #expect(try parse(["--help"]) == nil)
    #expect(
      table.help() == """
          --root DIR                    the checkout
          --update, --update-manifest   record new ids
                                        and rewrite the coverage
          --only F                      one figure (repeatable)
        """)
  }

  /// What `executable` prints on stderr and how it ends, given `arguments`, run in `folder` (the current one if nil).
  static func run(
    _ executable: URL, _ arguments: [String], in folder: URL? = nil
  ) throws -> (code: Int32, err: String, signalled: Bool) {
    let process = Process()
    process.executableURL = executable
    process.currentDirectoryURL = folder
    process.arguments = arguments
    let errors = Pipe()
    process.standardOutput = FileHandle.nullDevice
    process.standardError = errors
    try process.run()
    let said = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    return (process.terminationStatus, said, process.terminationReason != .exit)
  }

  @Test(
    "Every executable answers an unknown option and a missing value with one sentence that quotes it, and exits 2",
    arguments: [
      ("appflip-conformance", ["--frobnicate"], "Unknown option '--frobnicate'; see --help."),
      ("appflip-conformance", ["--report"], "Option '--report' needs a value, e.g. '--report <value>'."),
      ("appflip-conformance", ["fuzz", "--linkz", "5"], "Unknown option '--linkz'; did you mean '--links'?"),
      ("appflip-conformance", ["fuzz", "--seed"], "Option '--seed' needs a value, e.g. '--seed <value>'."),
      ("appflip-lint", ["--rot", "."], "Unknown option '--rot'; did you mean '--root'?"),
      ("appflip-lint", ["--root"], "Option '--root' needs a value, e.g. '--root <value>'."),
      ("appflip-mutants", ["--shw", "x"], "Unknown option '--shw'; did you mean '--show'?"),
      ("appflip-mutants", ["--config", "--full"], "Option '--config' needs a value, e.g. '--config <value>'."),
      ("appflip-bench", ["--quik"], "Unknown option '--quik'; did you mean '--quick'?"),
      ("appflip-bench", ["--only"], "Option '--only' needs a value, e.g. '--only <value>'."),
      ("appflip-bench", ["--rounds", "0"], "Option '--rounds' got '0'; give a whole number of at least 1."),
    ])
  func executables(_ name: String, _ arguments: [String], _ sentence: String) throws {
    let built = try #require(SignalCases.executable, "the executables are built with the tests")
    let (code, err, _) = try Self.run(built.deletingLastPathComponent().appendingPathComponent(name), arguments)
    #expect(code == 2)
    #expect(err == "error: \(sentence)\n")
  }
}
