extension CommandLineOptions {
  /// The text of `--help`, generated from `table`.
  package static var usage: String {
    var lines = [
      "USAGE: appflip-conformance [options]",
      "       appflip-conformance lint <your vector files or folders>...",
      "       appflip-conformance merge [--report <f>] [--markdown <f>] [--json <f>] <shard.json>...",
      "       appflip-conformance merge-junit <out.xml> <shard.xml>...",
      "       appflip-conformance fuzz [options]   (see fuzz --help)",
      "",
      "Runs App Flip conformance vectors against an implementation and writes a JUnit report.",
      "With no options: every bundled vector against the bundled reference handler, JUnit at Reports/junit.xml.",
    ]
    for section in CommandSection.allCases {
      lines += ["", section.rawValue + ":", table.help(section: section.rawValue, column: 24)]
    }
    lines += [
      "",
      "Progress shows on a terminal; colour only on a terminal and never with NO_COLOR set.",
      "",
      "EXIT CODES:",
      "  0    every selected vector passed (warnings allowed unless --strict)",
      "  1    a vector failed or could not be judged, or a waiver is stale",
      "  2    bad usage, a bad configuration, vector or waiver file, a waiver that matches no vector,",
      "       or a selection (--filter, --tag, --level, --flag, --shard) that matches no vector",
      "  3    a report could not be written (the others still were; the error names it)",
      "  130  interrupted (SIGINT); 143: terminated (SIGTERM); 129: hung up (SIGHUP) - the reports list what ran",
      "       and the rest as not run",
    ]
    return lines.joined(separator: "\n")
  }

  /// The options table of Docs/COMMAND-LINE.md, generated from `table`; a test keeps that file equal to it.
  package static var markdownTable: String {
    var rows = ["| option | what it does |", "|---|---|"]
    for section in CommandSection.allCases {
      let title = section.rawValue.prefix { $0 != " " }
      rows.append("| **\(title.prefix(1))\(title.dropFirst().lowercased())** | |")
      for option in table.options where option.section == section.rawValue {
        let names = option.names.map { "`\($0)\(option.value.map { " " + $0 } ?? "")`" }.joined(separator: ", ")
        rows.append("| \(names) | \(markdown(option.help)) |")
      }
    }
    return rows.joined(separator: "\n")
  }

  /// Help text made literal in a Markdown table cell: `\\`, `*` and `|` escaped.
  static func markdown(_ text: String) -> String {
    var out = ""
    for character in text {
      if character == "\\" || character == "*" || character == "|" { out.append("\\") }
      out.append(character)
    }
    return out
  }
}
