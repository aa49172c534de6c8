/// Values written as `sh` words, for commands the suite prints or runs (POSIX Shell Command Language, 2.2.3).
package enum ShellWord {
  /// A value as one `sh` word: in single quotes, each `'` written as `'\''`, e.g. `'outcome/*'`.
  package static func quoted(_ value: String) -> String {
    "'" + value.replacingOccurrences(of: "'", with: "'\\''") + "'"
  }

  /// A value as one `sh` word, quoted only when it holds a character the shell reads specially (or is empty).
  package static func word(_ value: String) -> String {
    let plain =
      !value.isEmpty
      && value.unicodeScalars.allSatisfy { scalar in
        ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar)
          || "_-./:=@%+,".unicodeScalars.contains(scalar)
      }
    return plain ? value : quoted(value)
  }
}
