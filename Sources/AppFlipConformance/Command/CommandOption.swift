/// One option of `appflip-conformance`: its names, value, help, section and how it sets the parsed options. The
/// table of them (`CommandOption.all`) is the one source of `--help`, parsing and Docs/COMMAND-LINE.md's table.
package struct CommandOption: Sendable {
  /// Where an option is listed in `--help` and Docs/COMMAND-LINE.md.
  package enum Section: String, Sendable, CaseIterable {
    /// What is tested.
    case implementation = "IMPLEMENTATION (default: the bundled reference handler)"
    /// Which vectors run.
    case vectors = "VECTORS"
    /// What fails a run.
    case gating = "GATING"
    /// What is written.
    case reports = "REPORTS"
  }

  /// Sets the parsed options from the option's value (the empty string for a flag).
  package typealias Apply = @Sendable (inout CommandLineOptions, String) throws(UsageError) -> Void

  /// The names, e.g. `["-h", "--help"]`; the last is the one messages use.
  package var names: [String]
  /// The value's name, e.g. `<seconds>`; `nil` for a flag.
  package var value: String?
  /// What the option does, in sentences (wrapped for `--help`).
  package var help: String
  /// Where it is listed.
  package var section: Section
  /// How its value is checked and stored.
  package var apply: Apply

  /// Creates an option.
  package init(
    _ names: [String], _ value: String? = nil, _ section: Section, _ help: String, apply: @escaping Apply
  ) {
    self.names = names
    self.value = value
    self.section = section
    self.help = help
    self.apply = apply
  }

  /// The name messages use.
  package var name: String { names.last ?? "" }

  /// The option as `--help` and Docs/COMMAND-LINE.md show it: `--timeout <seconds>`, `-h, --help`.
  package var synopsis: String { names.joined(separator: ", ") + (value.map { " " + $0 } ?? "") }

  /// The option with this name, if there is one.
  package static func named(_ name: String) -> CommandOption? { byName[name] }

  private static let byName: [String: CommandOption] = {
    var table: [String: CommandOption] = [:]
    for option in all { for name in option.names { table[name] = option } }
    return table
  }()

  /// Every name, in table order, for did-you-mean hints.
  package static var allNames: [String] { all.flatMap(\.names) }
}
