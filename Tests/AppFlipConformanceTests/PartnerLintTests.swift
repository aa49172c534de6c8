import Foundation
import Testing

@testable import AppFlipConformance

/// Issue 23, item 3: `appflip-conformance lint` checks a partner's folder with its own rules.json and flags.json, names
/// each problem by file, vector and field, and says nothing of what only the bundled corpus must hold.
@Suite("Partner lint")
struct PartnerLintTests {
  /// Runs `lint` on the paths; its exit code and the lines it printed.
  func lint(_ paths: [String]) async -> (ConformanceCommand.ExitCode, [String]) {
    let captured = CapturedOutput()
    let code = await ConformanceCommand.run(["lint"] + paths, output: captured.output)
    return (
      code, captured.out.split(separator: "\n").map(String.init) + captured.err.split(separator: "\n").map(String.init)
    )
  }

  /// A copy of the bundled `incoming/baseline-valid`, with another id.
  static let baselineCopy = """
    {"id": "acme/baseline-copy", "description": "d", "spec": ["s"], "rules": ["AF-V-1"], "level": "must",
     "incoming": {"params": [["client_id", "{client_id}"], ["scope", "{scopes}"], ["state", "s1"], ["redirect_uri", "{redirect_uri}"]]},
     "outcome": {"result": "granted", "code": "c-base"},
     "expect": {"verdict": "accepted", "authorization": {"clientId": "{client_id}", "redirectUri": "{redirect_uri}", "scopes": ["{scopes}"]},
                "reply": {"base": "{redirect_uri}", "code": "c-base", "state": "s1"}}}
    """

  @Test("A clean partner folder passes, though its vectors carry no flag and its rules have fewer than 3 vectors")
  func clean() async throws {
    let folder = try PartnerFolder()
    defer { folder.remove() }
    try folder.write("rules.json", PartnerFolder.rules)
    try folder.write("flags.json", PartnerFolder.flags)
    let unflagged = PartnerFolder.vector(id: "acme/unflagged", flags: []).replacingOccurrences(
      of: "\"state\", \"s1\"", with: "\"state\", \"s9\""
    )
    .replacingOccurrences(of: "\"state\": \"s1\"", with: "\"state\": \"s9\"")
    try folder.write("acme.json", Fixtures.file([PartnerFolder.vector(), unflagged], area: "acme"))
    let (code, lines) = await lint([folder.root.path])
    #expect(code == .success, "\(lines)")
    #expect(lines == ["2 vectors, 2 rules and 1 flag of your own: 0 problems"])
  }

  @Test("A broken folder: each problem names its file, vector and field, and says what to do")
  func broken() async throws {
    let folder = try PartnerFolder()
    defer { folder.remove() }
    try folder.write("rules.json", PartnerFolder.rules)
    try folder.write("flags.json", PartnerFolder.flags)
    // Each vector sends its own state, so only the two meant to repeat links do.
    func vector(_ id: String, rules: [String] = ["ACME-1"], flags: [String] = ["acme-session-leak"]) -> String {
      let state = id == "acme/same-links" ? "acme/ok" : id
      return PartnerFolder.vector(id: id, rules: rules, flags: flags)
        .replacingOccurrences(of: "[\"state\", \"s1\"]", with: "[\"state\", \"\(state)\"]")
        .replacingOccurrences(of: "\"state\": \"s1\"", with: "\"state\": \"\(state)\"")
    }
    let vectors = [
      vector("acme/Bad ID"),
      vector("acme/level").replacingOccurrences(of: #""level": "must""#, with: #""level": "high""#),
      vector("acme/rule", rules: ["ACME-9"]), vector("acme/bundled-rule", rules: ["AF-RE-99"]),
      vector("acme/flag", flags: ["acme-sesion-leak"]),
      vector("acme/placeholder").replacingOccurrences(of: "\"acme/placeholder\"]", with: "\"{stat}\"]"),
      vector("acme/ok"), vector("acme/same-links"), Self.baselineCopy, vector("incoming/baseline-valid"),
    ]
    try folder.write("acme.json", Fixtures.file(vectors, area: "acme"))
    let (code, lines) = await lint([folder.root.appendingPathComponent("acme.json").path])
    #expect(code == .failure)
    let file = folder.root.appendingPathComponent("acme.json").path
    let expected: [(id: String, field: String, words: String)] = [
      ("acme/Bad ID", "vectors[0].id", "an id is lowercase letters"),
      ("acme/level", "vectors[1].level", "level must be one of must, should, may"),
      ("acme/rule", "vectors[2].rules[0]", "no rules.json loaded with this vector defines it"),
      ("acme/bundled-rule", "rules[0]", "RULES.md defines no such rule"),
      ("acme/flag", "vectors[4].flags[0]", "did you mean \"acme-session-leak\""),
      ("acme/placeholder", "incoming.params[2]", "{stat}"),
      ("acme/same-links", "incoming", "same links with the same outcomes as vector \"acme/ok\""),
      ("acme/baseline-copy", "incoming", "as vector \"incoming/baseline-valid\" in Vectors/corpus/incoming.json"),
      ("incoming/baseline-valid", "\"id\"", "reuses an id already defined in Vectors/corpus/incoming.json"),
    ]
    let problems = lines.filter { $0.hasPrefix("problem: ") }
    for (id, field, words) in expected {
      let named = problems.filter { $0.contains("\(file): vector \"\(id)\"") && $0.contains(field) }
      #expect(
        named.count == 1 && named[0].contains(words), "\(id) \(field): \(words)\n\(problems.joined(separator: "\n"))")
    }
    #expect(problems.count == expected.count, "\(problems.joined(separator: "\n"))")
    // The five the loader refuses are not counted: the other five are.
    #expect(lines.last == "5 vectors, 2 rules and 1 flag of your own: \(problems.count) problems")
  }

  @Test("lint without a path, or with an option, is a usage error naming what it takes")
  func usage() async {
    for arguments in [[], ["--quiet", "a"]] {
      let (code, lines) = await lint(arguments)
      #expect(code == .usage && lines.first?.contains("'lint' takes your vector files or folders") == true, "\(lines)")
    }
  }
}
