import Foundation

/// A small tool's command line in one table: it parses the arguments and prints the same options' help.
package struct ToolOptions: Sendable {
  /// The options the tool understands, in the order its help lists them; `--help` and `-h` are always understood.
  package var options: [Option]

  /// Creates a table of `options`.
  package init(_ options: [Option]) {
    self.options = options
  }

  /// Reads `arguments` (without the tool's own name); any `--help` or `-h` asks for help whatever else is given.
  package func parse(_ arguments: [String]) throws(ToolUsageError) -> Parsed {
    var parsed = Parsed()
    if arguments.contains("--help") || arguments.contains("-h") {
      parsed.help = true
      return parsed
    }
    var rest = arguments[...]
    while let argument = rest.popFirst() {
      guard let option = options.first(where: { $0.names.contains(argument) }) else {
        throw ToolUsageError(message: "unknown argument \(Quoted.string(argument)); try --help")
      }
      let name = option.names[0]
      guard let value = option.value else {
        parsed.flags.insert(name)
        continue
      }
      guard let given = rest.popFirst() else {
        throw ToolUsageError(message: "'\(argument)' needs \(value.meaning)")
      }
      parsed.values[name, default: []].append(given)
    }
    return parsed
  }

  /// Reads this process's arguments for a tool's `main`: a usage error is printed (`error: …`) and exits 2, and
  /// `--help` prints `usage()` and exits 0.
  package func parseCommandLine(usage: () -> String) -> Parsed {
    let parsed: Parsed
    do throws(ToolUsageError) {
      parsed = try parse(Array(CommandLine.arguments.dropFirst()))
    } catch {
      FileHandle.standardError.write(Data("error: \(error.message)\n".utf8))
      exit(2)
    }
    if parsed.help {
      print(usage())
      exit(0)
    }
    return parsed
  }

  /// The options' help lines, names and values aligned, each continuation line indented under its first.
  package var help: String {
    let heads = options.map { option in
      "  " + option.names.joined(separator: ", ") + (option.value.map { " \($0.placeholder)" } ?? "")
    }
    let width = (heads.map(\.count).max() ?? 0) + 3
    return zip(heads, options).map { head, option in
      let lines = option.help.split(separator: "\n", omittingEmptySubsequences: false)
      let first = head.padding(toLength: width, withPad: " ", startingAt: 0) + (lines.first ?? "")
      let more = lines.dropFirst().map { String(repeating: " ", count: width) + $0 }
      return ([first] + more).joined(separator: "\n")
    }.joined(separator: "\n")
  }
}

extension ToolOptions {
  /// One flag or valued option: its names (the first is the one `Parsed` files it under), its value and its help.
  package struct Option: Sendable {
    /// The names it is spelled with, e.g. `["--update", "--update-manifest"]`.
    package var names: [String]
    /// The value it takes, or `nil` for a flag.
    package var value: Value?
    /// Its help, one or more lines.
    package var help: String

    /// A flag spelled with any of `names`.
    package static func flag(_ names: String..., help: String) -> Option {
      Option(names: names, value: nil, help: help)
    }

    /// An option `name` taking a value shown as `placeholder` ("DIR") and described as `meaning` ("a folder").
    package static func valued(_ name: String, _ placeholder: String, meaning: String, help: String) -> Option {
      Option(names: [name], value: Value(placeholder: placeholder, meaning: meaning), help: help)
    }
  }

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

  /// The value a valued option takes: how the help shows it and what a missing one is called in an error.
  package struct Value: Sendable {
    /// How the help shows it, e.g. `DIR`.
    package var placeholder: String
    /// What it is, for "'--root' needs a folder".
    package var meaning: String
  }
}

/// A command line a small tool cannot run: one sentence that quotes what was wrong and says what to do.
package struct ToolUsageError: Error, Sendable, Hashable {
  /// The sentence, without the leading "error: ".
  package var message: String

  /// Creates the error with its sentence.
  package init(message: String) {
    self.message = message
  }
}
