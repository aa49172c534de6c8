/// One option of `appflip-conformance`. The table of them (`CommandLineOptions.table`) is the one source of `--help`,
/// parsing and Docs/COMMAND-LINE.md's table.
package typealias CommandOption = OptionTable<CommandLineOptions>.Option

/// Where an option is listed in `--help` and Docs/COMMAND-LINE.md.
package enum CommandSection: String, Sendable, CaseIterable {
  /// What is tested.
  case implementation = "IMPLEMENTATION (default: the bundled reference handler)"
  /// Which vectors run.
  case vectors = "VECTORS"
  /// What fails a run.
  case gating = "GATING"
  /// What is written.
  case reports = "REPORTS"
}

extension OptionTable<CommandLineOptions>.Option {
  /// Creates an option of the main command, listed in `section`.
  init(
    _ names: [String], _ value: String? = nil, _ section: CommandSection, _ help: String,
    apply: @escaping OptionTable<CommandLineOptions>.Apply
  ) {
    self.init(names, value, help, section: section.rawValue, apply: apply)
  }
}
