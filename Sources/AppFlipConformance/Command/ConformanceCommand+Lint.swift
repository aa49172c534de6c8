extension ConformanceCommand {
  /// `lint`: checks a partner's vector files or folders (`PartnerLint`), printing each problem; exits 0 when they
  /// are clean, 1 with problems.
  static func lint(_ paths: [String], output: Output) -> ExitCode {
    let lint = PartnerLint(paths: paths)
    let problems = lint.problems
    for problem in problems { output.out("problem: \(ConsoleText.safe(problem))") }
    output.out(lint.summary(problems: problems.count))
    return problems.isEmpty ? .success : .failure
  }
}
