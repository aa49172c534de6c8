import AppFlipConformance
import Testing

@Suite("Tool options")
struct ToolOptionsTests {
  private let table = ToolOptions([
    .valued("--root", "DIR", meaning: "a folder", help: "the checkout"),
    .flag("--update", "--update-manifest", help: "record new ids\nand rewrite the coverage"),
    .valued("--only", "F", meaning: "a figure", help: "one figure (repeatable)"),
  ])

  @Test("Flags file under their first name, valued options keep every value in order")
  func parses() throws {
    let parsed = try table.parse(["--update-manifest", "--root", "r", "--only", "a", "--only", "b"])
    #expect(parsed.has("--update"))
    #expect(!parsed.help)
    #expect(parsed.value("--root") == "r")
    #expect(parsed.values["--only"] == ["a", "b"])
    #expect(try table.parse([]) == ToolOptions.Parsed())
  }

  @Test("An unknown argument is quoted with its invisible characters shown, and a missing value is named")
  func errors() {
    #expect(throws: ToolUsageError(message: "unknown argument \"--rot\"; try --help")) {
      try table.parse(["--rot", "x"])
    }
    #expect(throws: ToolUsageError(message: "unknown argument \"\\u{1B}[2J\"; try --help")) {
      try table.parse(["\u{1B}[2J"])
    }
    #expect(throws: ToolUsageError(message: "'--root' needs a folder")) { try table.parse(["--root"]) }
  }

  @Test("--help or -h anywhere asks for help, and the help lists every option from the same table, aligned")
  func help() throws {
    #expect(try table.parse(["--bogus", "-h"]).help)
    #expect(try table.parse(["--help"]).help)
    #expect(
      table.help == """
          --root DIR                    the checkout
          --update, --update-manifest   record new ids
                                        and rewrite the coverage
          --only F                      one figure (repeatable)
        """)
  }
}
