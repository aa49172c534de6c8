/// A command line that cannot be run as given.
package enum UsageError: Error, Sendable, Hashable {
  /// An option the tool does not know, and the known name nearest to it.
  case unknownOption(String, hint: String?)
  /// An option given without its value.
  case missingValue(option: String)
  /// An option whose value cannot be used.
  case invalidValue(option: String, value: String, expected: String)
  /// No vectors are left to run.
  case noVectors
  /// Two options that cannot go together; the second may be a phrase that says what the first needs.
  case conflict(String, String)
  /// `merge-junit` without an output file and at least one shard report, or `merge` without a shard's results.
  case mergeArguments(command: String)
  /// `lint` without a vector file or folder, or with an option.
  case lintArguments
  /// An output (`--json v.json`) that is the same file as an input or another output (`FilePaths`).
  case sameFile(output: FilePaths.Role, other: FilePaths.Role)
  /// A path that cannot be resolved, e.g. a symlink loop.
  case unresolvablePath(FilePaths.Role, reason: String)
  /// The client secret a token run needs cannot be read: the sentence says from where, and what to do.
  case clientSecret(String)
}

extension UsageError: CustomStringConvertible {
  /// One sentence that quotes the bad input and says what to do.
  package var description: String {
    switch self {
    case .unknownOption(let argument, let hint):
      return "Unknown option '\(argument)'\(hint.map { "; did you mean '\($0)'?" } ?? "; see --help.")"
    case .missingValue(let option):
      return "Option '\(option)' needs a value, e.g. '\(option) <value>'."
    case .invalidValue(let option, let value, let expected):
      return "Option '\(option)' got '\(value)'; give \(expected)."
    case .noVectors:
      return "'--no-bundled' leaves no vectors; add '--vectors <path>'."
    case .conflict(let option, let other) where other.hasPrefix("-"):
      return "'\(option)' cannot go with '\(other)'; drop one."
    case .conflict(let option, let other):
      return "'\(option)' cannot go with \(other)."
    case .sameFile(let output, let other) where other.isInput:
      return "\(output) is the same file as \(other); the report would replace it, so write it elsewhere."
    case .sameFile(let output, let other):
      return "\(output) and \(other) are the same file; one would replace the other, so give each its own path."
    case .unresolvablePath(let role, let reason):
      return "\(role) cannot be used: \(reason); choose another path."
    case .lintArguments:
      return "'lint' takes your vector files or folders (with their rules.json and flags.json), and no option, "
        + "e.g. 'lint Tests/AppFlipVectors'."
    case .mergeArguments(let command) where command == "merge":
      return "'merge' needs the JSON results (--json) of each shard, e.g. 'merge --report Reports/junit.xml "
        + "--markdown summary.md --json results.json shard-1.json shard-2.json'."
    case .mergeArguments:
      return "'merge-junit' needs the output file, then at least one shard report, "
        + "e.g. 'merge-junit Reports/junit.xml shard-1.xml shard-2.xml'."
    case .clientSecret(let sentence):
      return sentence
    }
  }
}
