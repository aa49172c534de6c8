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
