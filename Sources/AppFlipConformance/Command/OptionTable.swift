import Foundation

/// The one argument parser of every executable: a table of options that parses a command line into a value
/// (`Options`) and prints the same options' help; errors quote the bad input in one sentence (`UsageError`), as
/// swift-argument-parser's do.
package struct OptionTable<Options>: Sendable {
  /// Sets the parsed options from an option's value (the empty string for a flag).
  package typealias Apply = @Sendable (inout Options, String) throws(UsageError) -> Void

  /// One option: its names, the value it takes, its help, its section of the help, and how it sets `Options`.
  package struct Option: Sendable {
    /// The names, e.g. `["-h", "--help"]`; the last is the one messages use.
    package var names: [String]
    /// The value's name, e.g. `<seconds>`; `nil` for a flag.
    package var value: String?
    /// Where the help lists it (the empty string for a table without sections).
    package var section: String
    /// What the option does, in sentences; a line break starts a new line in the help.
    package var help: String
    /// How its value is checked and stored.
    package var apply: Apply

    /// Creates an option.
    package init(
      _ names: [String], _ value: String? = nil, _ help: String, section: String = "", apply: @escaping Apply
    ) {
      (self.names, self.value, self.section, self.help, self.apply) = (names, value, section, help, apply)
    }

    /// An option whose value `read` turns into what `set` stores; a value it cannot read (`nil`) is refused with
    /// "give `expected`".
    package init<Value>(
      _ names: [String], _ value: String, _ help: String, section: String = "", expected: String,
      _ read: @escaping @Sendable (String) -> Value?, set: @escaping @Sendable (inout Options, Value) -> Void
    ) {
      let name = names.last ?? ""
      self.init(names, value, help, section: section) { (options: inout Options, text: String) throws(UsageError) in
        guard let read = read(text) else { throw .invalidValue(option: name, value: text, expected: expected) }
        set(&options, read)
      }
    }

    /// The name messages use.
    package var name: String { names.last ?? "" }

    /// The option as the help shows it: `--timeout <seconds>`, `-h, --help`.
    package var synopsis: String { names.joined(separator: ", ") + (value.map { " " + $0 } ?? "") }
  }

  /// The options, in the order the help lists them.
  package let options: [Option]
  private let byName: [String: Int]

  /// A table of `options`.
  package init(_ options: [Option]) {
    self.options = options
    var byName: [String: Int] = [:]
    for (index, option) in options.enumerated() { for name in option.names { byName[name] = index } }
    self.byName = byName
  }

  /// The option with this name, if there is one.
  package func named(_ name: String) -> Option? { byName[name].map { options[$0] } }

  /// Sets `options` from `arguments` in order, calling `each` with every option given and its value, and `positional`
  /// with each argument that is no option (without it, such an argument is refused); `false` when `-h` or `--help`
  /// stands anywhere (help wins over any other argument, nothing is set). A value may follow its option or be joined
  /// with `=` (`--report=r.xml`); a missing or empty value, or one that is itself an option (`--report --quiet`), is
  /// refused, and so is a name the table lacks, with the nearest name as a hint.
  @discardableResult
  package func parse(
    _ arguments: some Collection<String>, into options: inout Options,
    each: (Option, String) throws(UsageError) -> Void = { _, _ in }, positional: ((String) -> Void)? = nil
  ) throws(UsageError) -> Bool {
    guard !arguments.contains(where: { $0 == "-h" || $0 == "--help" }) else { return false }
    var rest = arguments[...]
    while let argument = rest.popFirst() {
      if let positional, !argument.hasPrefix("-") {
        positional(argument)
        continue
      }
      var name = argument
      var inline: String?
      if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
        (name, inline) = (String(argument[..<equals]), String(argument[argument.index(after: equals)...]))
      }
      guard let option = named(name), option.value != nil || inline == nil else {
        throw .unknownOption(argument, hint: Spelling.closest(to: name, in: self.options.flatMap(\.names), maxEdits: 3))
      }
      var value = ""
      if option.value != nil {
        if inline == nil, let next = rest.first, named(next) != nil { throw .missingValue(option: name) }
        guard let given = inline ?? rest.popFirst(), !given.isEmpty else { throw .missingValue(option: name) }
        value = given
      }
      try each(option, value)  // first: a command that refuses the option says so before its value is read
      try option.apply(&options, value)
    }
    return true
  }

  /// Parses this process's arguments for a small tool's `main`, starting from `defaults`: a usage error is printed
  /// (`error: …`) and exits 2, and `-h` or `--help` prints `usage()` and exits 0.
  package func parseCommandLine(_ defaults: Options, usage: () -> String) -> Options {
    var options = defaults
    do throws(UsageError) {
      if try parse(CommandLine.arguments.dropFirst(), into: &options) { return options }
    } catch {
      FileHandle.standardError.write(Data("error: \(ConsoleText.safe(error.description))\n".utf8))
      exit(2)
    }
    print(usage())
    exit(0)
  }

  /// The help of the options in `section`: each synopsis, then its help from `column` on (by default three
  /// characters past the longest synopsis; a longer synopsis is followed by two spaces), wrapped to `width`.
  package func help(section: String = "", column: Int? = nil, width: Int = 118) -> String {
    let listed = options.filter { $0.section == section }
    let column = column ?? (listed.map { $0.synopsis.count + 2 }.max() ?? 0) + 3
    return listed.map { option in
      let head = "  " + option.synopsis
      let padded = head.count + 2 > column ? head + "  " : head.padding(toLength: column, withPad: " ", startingAt: 0)
      let lines = option.help.split(separator: "\n").flatMap { Self.wrap($0, width: width - column) }
      return ([padded + lines[0]] + lines.dropFirst().map { String(repeating: " ", count: column) + $0 })
        .joined(separator: "\n")
    }.joined(separator: "\n")
  }

  /// Words of `text` in lines of at most `width` characters (a longer word stands on its own line).
  static func wrap(_ text: Substring, width: Int) -> [String] {
    var lines: [String] = []
    var line = ""
    for word in text.split(separator: " ") {
      if line.isEmpty {
        line = String(word)
      } else if line.count + 1 + word.count <= width {
        line += " " + word
      } else {
        lines.append(line)
        line = String(word)
      }
    }
    return lines + [line]
  }
}

extension OptionTable.Option {
  /// `--timeout <seconds>`, which a run and `fuzz` take alike: how long one step may take before it is an error.
  package static func timeout(set: @escaping @Sendable (inout Options, Double) -> Void) -> Self {
    Self(
      ["--timeout"], "<seconds>", "Seconds one step may take before it is an error (default: 10).",
      expected: "a positive number of seconds", OptionReader.seconds, set: set)
  }
}

/// The readers of option values that several options share.
package enum OptionReader {
  /// A positive, finite number of seconds.
  package static func seconds(_ text: String) -> Double? { Double(text).flatMap { $0 > 0 && $0.isFinite ? $0 : nil } }

  /// A whole number of at least 1.
  package static func count(_ text: String) -> Int? { Int(text).flatMap { $0 > 0 ? $0 : nil } }
}
