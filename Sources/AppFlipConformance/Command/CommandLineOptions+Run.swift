extension CommandLineOptions {
  /// A run's option read by its own name (`options.timeout` is `options.run.timeout`): the command line holds the
  /// run's options once, in `run`.
  package subscript<Value>(dynamicMember keyPath: KeyPath<ConformanceOptions, Value>) -> Value { run[keyPath: keyPath] }

  /// The files this command line reads and writes, for the check that no report lands on another file it names.
  var filePaths: FilePaths {
    var paths = FilePaths()
    if let output = mergeOutput {
      for input in mergeInputs { paths.input("merge-junit", input) }
      paths.output("merge-junit's output", output)
      return paths
    }
    // `lint` and `merge` set nothing else but the reports (`merge` takes only --report, --markdown and --json).
    for path in lintPaths { paths.input("lint", path) }
    for input in mergeResults { paths.input("merge", input) }
    for path in run.vectors { paths.input("--vectors", path) }
    for (option, path) in [
      ("--config", configPath), ("--waivers", run.waivers), ("--waivers-from", waiversFromPath),
      ("--cookie-file", endpointStaging.cookieFile), ("--cacert", endpointStaging.caCertificate),
      ("--secret-file", token.secretFile),
    ] {
      paths.input(option, path)
    }
    if waiversFromPath == nil && !list && !validate {
      paths.output("--report", run.junit)
      paths.output("--markdown", run.markdown)
      paths.output("--json", run.json)
    }
    paths.output("--write-waivers", run.writeWaivers)
    return paths
  }
}
