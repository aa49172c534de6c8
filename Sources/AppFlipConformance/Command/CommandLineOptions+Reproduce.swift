import Foundation

extension CommandLineOptions {
  /// Whether an option stays in the command that runs one vector again: what is tested and how (the implementation's
  /// options but `--jobs`), which vectors are loaded, and `--strict`; never a selection, shard, gate or report.
  static func isReproduced(_ option: CommandOption) -> Bool {
    switch option.name {
    case "--jobs": false
    case "--vectors", "--no-bundled", "--strict": true
    default: option.section == CommandSection.implementation.rawValue
    }
  }

  /// The words an option given with `value` adds to the reproduce command: header and cookie values are credentials,
  /// so only their names are kept (`--header 'Authorization: <redacted>'`).
  static func reproduced(_ option: CommandOption, _ value: String) -> [String] {
    guard option.value != nil else { return [option.name] }
    let shown: String
    switch option.name {
    case "--header": shown = (value.split(separator: ":", maxSplits: 1).first.map(String.init) ?? "") + ": <redacted>"
    case "--cookie": shown = (value.split(separator: "=", maxSplits: 1).first.map(String.init) ?? "") + "=<redacted>"
    default: shown = value
    }
    return [option.name, ShellWord.word(shown)]
  }

  /// The command that runs the vector with id `id` again as this run was set up: the program, the options that
  /// decide what is tested (`isReproduced`), in the order given, and `--filter` with the id (README, "Reading a
  /// failure").
  func reproduceCommand(program: String = ConformanceCommand.programName) -> @Sendable (String) -> String {
    let prefix = ([program] + reproduceWords).joined(separator: " ")
    return { id in prefix + " --filter " + ShellWord.quoted(VectorFilter.escaped(id)) }
  }
}

extension ConformanceCommand {
  /// How a person runs this command: `swift run appflip-conformance` when it was built in a package's `.build`
  /// folder (`.build/debug/appflip-conformance` run from the package too), else the program's name.
  static var programName: String {
    let path = CommandLine.arguments.first ?? ""
    return ("/" + path).contains("/.build/") || path.isEmpty
      ? "swift run \(SuiteInfo.name)" : ShellWord.word(URL(fileURLWithPath: path).lastPathComponent)
  }
}
