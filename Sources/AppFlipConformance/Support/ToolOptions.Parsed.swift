extension ToolOptions {
  /// What a command line gave: its flags and its options' values, each under the option's first name.
  package struct Parsed: Sendable, Equatable {
    /// Whether `--help` or `-h` was given.
    package var help = false
    /// The flags given.
    package var flags: Set<String> = []
    /// Each valued option's values, in the order given.
    package var values: [String: [String]] = [:]

    /// Nothing given: no help, no flags, no values.
    package init() {}

    /// Whether the flag `name` was given.
    package func has(_ name: String) -> Bool { flags.contains(name) }

    /// The last value given for `name`, or `nil` when it was not given.
    package func value(_ name: String) -> String? { values[name]?.last }
  }
}
