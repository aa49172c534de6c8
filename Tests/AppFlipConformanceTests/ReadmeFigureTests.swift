import AppFlip
import AppFlipMutants
import Foundation
import Testing

@testable import AppFlipConformance

/// Issue 23, item 8: the README's figures are produced, not typed. Each console sample with output is a run's output
/// (its lines in order, `…` where lines are left out), each figure in its prose is computed here, and once those and
/// the identifiers (rule ids, option values) are taken out, no digit is left: a number typed into the README fails.
@Suite(
  "README figures", .serialized,
  .enabled(if: PythonFixtures.python, "needs python3 for the README's --exec sample (CI always runs it)"))
struct ReadmeFigureTests {
  static let readmeURL = SourceTree.root.appendingPathComponent("README.md")

  /// A ```console block: its command (after `$ `, continuation lines joined) and the output lines it shows.
  struct ConsoleBlock {
    var command: String
    var lines: [String]
  }

  /// The README's fenced blocks: their language and text.
  static func fences(in text: String) -> [(language: String, body: String)] {
    text.components(separatedBy: "\n```").enumerated().compactMap { index, part in
      guard index % 2 == 1 else { return nil }
      let language = String(part.prefix { $0 != "\n" })
      return (language, String(part.dropFirst(language.count + 1)))
    }
  }

  static func consoleBlocks(in text: String) -> [ConsoleBlock] {
    fences(in: text).filter { $0.language == "console" }.map { fence in
      var lines = fence.body.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
      var command = String(lines.removeFirst().dropFirst(2))
      while command.hasSuffix("\\"), !lines.isEmpty {
        command = command.dropLast() + " " + lines.removeFirst().trimmingCharacters(in: .whitespaces)
      }
      return ConsoleBlock(command: command, lines: lines.filter { !$0.isEmpty })
    }
  }

  /// Words of a command line as `sh` splits the README's commands: spaces, and single quotes.
  static func words(_ command: String) -> [String] {
    var words: [String] = []
    var current: String?
    var quoted = false
    for character in command {
      if character == "'" {
        quoted.toggle()
        current = current ?? ""
      } else if character == " " && !quoted {
        if let word = current { words.append(word) }
        current = nil
      } else {
        current = (current ?? "") + String(character)
      }
    }
    if let word = current { words.append(word) }
    return words
  }

  /// Whether `shown` is `actual` with lines left out only where a line reads `…`.
  static func matches(_ shown: [String], _ actual: [String]) -> Bool {
    var next = 0
    var gap = false
    for line in shown {
      if line.trimmingCharacters(in: .whitespaces) == "…" {
        gap = true
        continue
      }
      guard let found = actual[next...].firstIndex(of: line), gap || found == next else { return false }
      next = found + 1
      gap = false
    }
    return gap || next == actual.count
  }

  /// The command's output as the README shows it: paths from the package root, the report where it would go by
  /// default, the commit left out.
  static func output(of command: String) async throws -> [String] {
    let root = SourceTree.root.path + "/"
    var arguments = Array(words(command).dropFirst(3)).map {
      $0.hasPrefix("python3 Tests/") ? "python3 " + root + $0.dropFirst("python3 ".count) : $0
    }
    let report = FileManager.default.temporaryDirectory.appendingPathComponent("readme-\(UUID().uuidString).xml")
    defer { try? FileManager.default.removeItem(at: report) }
    arguments += ["--report", report.path]
    let captured = CapturedOutput()
    _ = await ConformanceCommand.run(arguments, output: captured.output)
    let commit = "(commit \(SuiteInfo.commit.prefix(12)))"
    return captured.out.replacingOccurrences(of: commit, with: "(commit …)")
      .replacingOccurrences(of: report.path, with: "Reports/junit.xml").replacingOccurrences(of: root, with: "")
      .split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
  }

  @Test("Every console sample with output in README.md is what its command prints")
  func consoleSamples() async throws {
    let blocks = Self.consoleBlocks(in: try String(contentsOf: Self.readmeURL, encoding: .utf8))
    let runnable = blocks.filter { $0.command.hasPrefix("swift run appflip-conformance") && !$0.lines.isEmpty }
    #expect(runnable.count >= 3, "the README shows a run, a failure and --quiet")
    for block in runnable {
      let actual = try await Self.output(of: block.command)
      #expect(
        Self.matches(block.lines, actual),
        "README.md's sample of `\(block.command)` is not what it prints; it prints:\n\(actual.joined(separator: "\n"))")
    }
    // Of the rest, only `swift test` shows output, and no figure in it.
    for block in blocks where !runnable.contains(where: { $0.command == block.command }) && !block.lines.isEmpty {
      #expect(block.command == "swift test" && !block.lines.joined().contains { $0.isNumber }, "\(block.command)")
    }
  }

  @Test("The matcher takes lines left out only where the README shows …")
  func matcher() {
    #expect(Self.matches(["a", "…", "d"], ["a", "b", "c", "d"]))
    #expect(Self.matches(["a", "  …"], ["a", "b"]))
    #expect(!Self.matches(["a", "d"], ["a", "b", "c", "d"]))
    #expect(!Self.matches(["a", "b"], ["a", "b", "c"]))
    #expect(!Self.matches(["b", "a"], ["a", "b"]))
    #expect(
      Self.words("swift run x --exec 'python3 a b.py' --quiet") == [
        "swift", "run", "x", "--exec", "python3 a b.py", "--quiet",
      ])
  }

  @Test("Docs/SUITE.md counts the mutants there are")
  func suiteMutants() throws {
    let suite = try String(contentsOf: SourceTree.root.appendingPathComponent("Docs/SUITE.md"), encoding: .utf8)
    #expect(suite.contains("holds \(Mutant.all.count) deliberately broken handlers"))
  }

  /// Each figure of the README's prose, as the phrase that holds it, computed.
  static var figures: [String] {
    [
      "Google's \(RedirectAllowList.google.urls.count) App Flip",
      "its \(Mutant.all.count) deliberately broken handlers",
    ]
  }

  @Test("Each figure in README.md's prose is computed, and no other number is in it; it stays under 250 lines")
  func prose() throws {
    var text = try String(contentsOf: Self.readmeURL, encoding: .utf8)
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false).count - 1
    #expect(lines < 250, "README.md has \(lines) lines: a partner reads it whole; move the detail to Docs/")
    for phrase in Self.figures {
      #expect(text.contains(phrase), "README.md lacks \"\(phrase)\", its figure as the suite computes it")
      text = text.replacingOccurrences(of: phrase, with: "")
    }
    // "Swift 6": the language mode the package builds in.
    let manifest = try String(contentsOf: SourceTree.root.appendingPathComponent("Package.swift"), encoding: .utf8)
    #expect(manifest.contains("swiftLanguageModes: [.v6]") && text.contains("Swift 6,"))
    text = text.replacingOccurrences(of: "Swift 6,", with: "")
    // The exit codes are the command's own, each described by what it means.
    let meanings: [ConformanceCommand.ExitCode: String] = [
      .success: "passed", .failure: "failed", .usage: "bad usage", .reportFailed: "report could not be written",
    ]
    let rows = text.split(separator: "\n").filter { $0.hasPrefix("| ") && $0.dropFirst(2).first?.isNumber == true }
    #expect(rows.count == meanings.count)
    for row in rows {
      let code = ConformanceCommand.ExitCode(rawValue: Int32(row.dropFirst(2).prefix { $0.isNumber }) ?? -1)
      #expect(code.flatMap { meanings[$0] }.map { row.contains($0) } == true, "\(row)")
      text = text.replacingOccurrences(of: row, with: "")
    }
    // The configuration sample is one a run accepts.
    let json = try #require(Self.fences(in: text).first { $0.language == "json" }).body
    let configuration = try JSONDecoder().decode(PartnerConfiguration.self, from: Data(json.utf8))
    #expect(configuration.allowList.urls.allSatisfy(RedirectAllowList.google.urls.contains))
    // Fenced blocks are checked above (console, configuration) or compiled (ReadmePartnerPackageTests).
    for fence in Self.fences(in: text) { text = text.replacingOccurrences(of: fence.body, with: "") }
    // Identifiers: rules RULES.md defines, deployment targets, and example option values.
    let identifiers = try NSRegularExpression(
      pattern: #"AF-[A-Z]+-[0-9]+|ios[0-9]+|python3|--shard [0-9]+/[0-9]+|shard-[0-9]+\.json"#)
    for match in identifiers.matches(in: text, range: NSRange(text.startIndex..., in: text)).reversed() {
      let range = try #require(Range(match.range, in: text))
      let word = String(text[range])
      if word.hasPrefix("AF-") { #expect(RulesDocument.bundled.ids.contains(word), "\(word) is no rule of RULES.md") }
      if word.hasPrefix("ios") { #expect(DeliveryPlatform(rawValue: word) != nil, "\(word) is no --platform") }
      text.removeSubrange(range)
    }
    let typed = text.split(separator: "\n").filter { $0.contains { $0.isNumber } }
    #expect(
      typed.isEmpty, "README.md has numbers no test produces; compute them here:\n\(typed.joined(separator: "\n"))")
  }
}
