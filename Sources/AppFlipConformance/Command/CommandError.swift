/// A report or file the command cannot write.
package enum CommandError: Error, Sendable, Hashable, CustomStringConvertible {
  /// Writing failed.
  case cannotWrite(what: String, path: String, reason: String)

  /// One sentence that quotes the path and says what to do.
  package var description: String {
    switch self {
    case .cannotWrite(let what, let path, let reason):
      "cannot write \(what) to \(Quoted.string(path)): \(reason); choose another path or fix the folder."
    }
  }
}
