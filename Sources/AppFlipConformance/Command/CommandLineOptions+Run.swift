extension CommandLineOptions {
  /// `--vectors`, as typed.
  var vectorPaths: [String] { run.vectors }
  /// `--no-bundled` clears it.
  var bundled: Bool { run.bundled }
  /// `--report`, the JUnit report's path (never empty on the command line).
  var reportPath: String { run.junit ?? "" }
  /// `--filter`, `--tag`, `--level`, `--flag`.
  var filter: VectorFilter { run.filter }
  /// `--shard`.
  var shard: VectorShard? { run.shard }
  /// `--strict`.
  var strict: Bool { run.strict }
  /// `--timeout`.
  var timeout: Double { run.timeout }
  /// `--platform`.
  var platform: DeliveryPlatform? { run.platform }
  /// `--jobs N`: how many adapters run vectors at once; nil for the default (`ConformanceCommand.jobs`).
  var jobs: Int? { run.jobs }
  /// `--max-failures`.
  var maxFailures: Int? { run.maxFailures }
  /// `--waivers`.
  var waiversPath: String? { run.waivers }
  /// `--write-waivers`.
  var writeWaiversPath: String? { run.writeWaivers }
  /// `--markdown`.
  var markdownPath: String? { run.markdown }
  /// `--json`.
  var jsonPath: String? { run.json }
}

extension CommandLineOptions {
  /// The files this command line reads and writes, for the check that no report lands on another file it names.
  var filePaths: FilePaths {
    var paths = FilePaths()
    for path in lintPaths { paths.input("lint", path) }
    if !mergeResults.isEmpty {
      for input in mergeResults { paths.input("merge", input) }
      paths.output("--report", reportPath)
      paths.output("--markdown", markdownPath)
      paths.output("--json", jsonPath)
      return paths
    }
    if let output = mergeOutput {
      for input in mergeInputs { paths.input("merge-junit", input) }
      paths.output("merge-junit's output", output)
      return paths
    }
    for path in vectorPaths { paths.input("--vectors", path) }
    for (option, path) in [
      ("--config", configPath), ("--waivers", waiversPath), ("--waivers-from", waiversFromPath),
      ("--cookie-file", endpointStaging.cookieFile), ("--cacert", endpointStaging.caCertificate),
      ("--secret-file", token.secretFile),
    ] {
      paths.input(option, path)
    }
    if waiversFromPath == nil && !list && !validate {
      paths.output("--report", reportPath)
      paths.output("--markdown", markdownPath)
      paths.output("--json", jsonPath)
    }
    paths.output("--write-waivers", writeWaiversPath)
    return paths
  }
}
