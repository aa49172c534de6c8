import Foundation
import Testing

@testable import AppFlipConformance
@testable import AppFlipConformanceTesting

extension PartnerVectorTests {
  /// A partner folder with the Acme rules and flags, an `acme/ok` vector that passes against the reference handler and
  /// an `acme/leak` vector, flagged `acme-session-leak`, that fails against it.
  func acmeFolder() throws -> PartnerFolder {
    let folder = try PartnerFolder()
    try folder.write("rules.json", PartnerFolder.rules)
    try folder.write("flags.json", PartnerFolder.flags)
    let leak = PartnerFolder.vector(id: "acme/leak").replacingOccurrences(
      of: "\"state\": \"s1\"}", with: "\"state\": \"s2\"}")
    try folder.write("acme.json", Fixtures.file([PartnerFolder.vector(), leak], area: "acme"))
    return folder
  }

  func command(_ arguments: [String]) async -> (ConformanceCommand.ExitCode, CapturedOutput) {
    let captured = CapturedOutput()
    let code = await ConformanceCommand.run(arguments, output: captured.output)
    return (code, captured)
  }

  static let bundledFlags = FlagRegistry.bundled.flags.keys.sorted().joined(separator: ", ")

  @Test("--flag takes a flag a partner's flags.json defines, and refuses a misspelled one listing both registries")
  func flagOption() async throws {
    let folder = try acmeFolder()
    defer { folder.remove() }
    let vectors = ["--no-bundled", "--vectors", folder.root.path]
    let (code, output) = await command(vectors + ["--flag", "acme-session-leak", "--list"])
    #expect(code == .success, "\(output.err)")
    #expect(output.out.split(separator: "\n").map { $0.prefix { $0 != "\t" } } == ["acme/ok", "acme/leak"])
    let (typo, refused) = await command(vectors + ["--flag", "acme-sesion-leak", "--list"])
    #expect(typo == .usage)
    #expect(
      refused.err
        == "error: Option '--flag' got 'acme-sesion-leak'; give a bug class from Vectors/flags.json: "
        + Self.bundledFlags + ", or one of your flags.json: acme-session-leak.")
    #expect(refused.out == "")
  }

  @Test("The harness takes a partner's flag in its filter, and refuses one no flags.json defines as a failing case")
  func harnessFlag() throws {
    let folder = try acmeFolder()
    defer { folder.remove() }
    let known = ConformanceHarness(
      name: "partner-flag-known", handler: ReferenceHandlerAdapter(),
      options: ConformanceOptions(
        vectors: [folder.root.path], bundled: false, filter: VectorFilter(flags: ["acme-session-leak"])))
    #expect(known.cases.map(\.id) == ["acme/ok", "acme/leak"])
    let unknown = ConformanceHarness(
      name: "partner-flag-unknown", handler: ReferenceHandlerAdapter(),
      options: ConformanceOptions(
        vectors: [folder.root.path], bundled: false, filter: VectorFilter(flags: ["open-redirekt"])))
    let problems = unknown.cases.filter { $0.kind == .selection }.map(\.result.message)
    #expect(
      problems
        == [
          "Option '--flag' got 'open-redirekt'; give a bug class from Vectors/flags.json: " + Self.bundledFlags
            + ", or one of your flags.json: acme-session-leak."
        ])
  }

  @Test(
    "The Markdown summaries of the command and the harness describe a partner's flag from its flags.json and the rules a failing vector cites from its rules.json"
  )
  func markdownDescribesPartnerFlag() async throws {
    let folder = try acmeFolder()
    defer { folder.remove() }
    let cli = folder.root.appendingPathComponent("out/cli.md").path
    let (code, output) = await command([
      "--no-bundled", "--vectors", folder.root.path, "--report", folder.root.appendingPathComponent("out/j.xml").path,
      "--markdown", cli,
    ])
    #expect(code == .failure, "\(output.err)")
    let harnessPath = folder.root.appendingPathComponent("out/harness.md").path
    let harness = ConformanceHarness(
      name: "partner-markdown", handler: ReferenceHandlerAdapter(),
      options: ConformanceOptions(vectors: [folder.root.path], bundled: false, markdown: harnessPath))
    for testCase in harness.cases { _ = await harness.run(testCase) }
    for path in [cli, harnessPath] {
      let markdown = try String(contentsOfFile: path, encoding: .utf8)
      #expect(markdown.contains("#### acme-session-leak (1 vector)"), "\(markdown)")
      #expect(markdown.contains("*What goes wrong:* The reply leaks Acme's session id."), "\(markdown)")
      #expect(!markdown.contains("Not in the flag registry"))
      #expect(
        markdown.contains("*Your rules:* `ACME-1` (MUST): The reply never carries Acme's session id."), "\(markdown)")
      #expect(markdown.components(separatedBy: "*Your rules:*").count == 2, "only the failing vector: \(markdown)")
    }
  }
}
