/// The parsed command line of `appflip-conformance`: the run's options, shared with `ConformanceHarness`, and what only
/// the command line has (the implementation to start, listing, merging).
@dynamicMemberLookup
package struct CommandLineOptions: Sendable, Hashable {
  /// What the run does: vectors, selection, gating and reports (JUnit at `Reports/junit.xml` unless `--report`).
  package var run = ConformanceOptions(junit: "Reports/junit.xml")
  var configPath: String?
  var waiversFromPath: String?
  var quiet = false
  var mergeOutput: String?
  var mergeInputs: [String] = []
  /// `merge`: the JSON results of a run's shards, merged into the reports of the unsharded run.
  var mergeResults: [String] = []
  /// `lint`: a partner's vector files and folders to check.
  var lintPaths: [String] = []
  var exec: String?
  var endpoint: String?
  var headers: [String] = []
  var cookies: [String] = []
  var endpointStaging = EndpointStagingOptions()
  var token = TokenOptions()
  var association = false
  var associationFile: String?
  var list = false
  var validate = false
  var help = false
  var version = false
  /// The options that decide what is tested, as given (credentials redacted), for the command that reproduces a
  /// vector (`reproduceCommand`).
  var reproduceWords: [String] = []

  /// Parses arguments, with errors that quote the bad input.
  package static func parse(_ arguments: [String]) throws(UsageError) -> CommandLineOptions {
    var options = CommandLineOptions()
    var rest = arguments[...]
    if rest.first == "merge-junit" {
      rest = rest.dropFirst()
      guard let output = rest.popFirst(), !rest.isEmpty else {
        throw .mergeArguments(command: "merge-junit")
      }
      options.mergeOutput = output
      options.mergeInputs = Array(rest)
      return options
    }
    if rest.first == "lint" {
      options.lintPaths = Array(rest.dropFirst())
      guard !options.lintPaths.isEmpty, !options.lintPaths.contains(where: { $0.hasPrefix("-") }) else {
        throw .lintArguments
      }
      return options
    }
    if rest.first == "merge" {  // merge [--report F] [--markdown F] [--json F] SHARD.json…
      var results: [String] = []
      let merge = ["--report", "--markdown", "--json"]
      options.help = try !table.parse(
        rest.dropFirst(), into: &options,
        each: { (option, _) throws(UsageError) in
          guard merge.contains(option.name) else {
            throw .conflict(option.name, "merge, which takes --report, --markdown and --json")
          }
        }, positional: { results.append($0) })
      options.mergeResults = results
      guard options.help || !results.isEmpty else { throw .mergeArguments(command: "merge") }
      return options
    }
    var given: [(CommandOption, String)] = []
    options.help = try !table.parse(rest, into: &options) { given.append(($0, $1)) }
    options.reproduceWords = given.filter { isReproduced($0.0) }.flatMap(reproduced)
    try options.check(given: given.map(\.0.name))
    return options
  }

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

  /// Whether the run tests the universal link's association (`--association`, `--association-file`).
  var testsAssociation: Bool { association || associationFile != nil }

  /// Refuses options that cannot go together; `given` names the options given, in order.
  private func check(given: [String]) throws(UsageError) {
    if !run.bundled && run.vectors.isEmpty && !help && !version {
      throw .noVectors
    }
    if waiversFromPath != nil && run.writeWaivers == nil {
      throw .conflict("--waivers-from", "a run; it needs --write-waivers")
    }
    if exec != nil && endpoint != nil {
      throw .conflict("--exec", "--endpoint")
    }
    if testsAssociation, let other = exec != nil ? "--exec" : (endpoint != nil ? "--endpoint" : nil) {
      throw .conflict(association ? "--association" : "--association-file", other)
    }
    // --cacert trusts a staging host's CA for the association's fetch too.
    let staging =
      ["--header", "--cookie", "--param", "--scope", "--pkce", "--cookie-file", "--login-command"]
      + ["--login-timeout", "--no-preflight"] + (testsAssociation ? [] : ["--cacert"])
    if endpoint == nil, let option = given.first(where: staging.contains) {
      throw .conflict(option, "the app profile; it needs --endpoint")
    }
    if endpoint == nil, token.endpoint != nil {
      throw .conflict("--token-endpoint", "the app profile; it needs --endpoint, whose codes it exchanges")
    }
    let tokenOptions = ["--secret-env", "--secret-file", "--token-auth", "--code-lifetime"]
    if token.endpoint == nil, let option = given.first(where: tokenOptions.contains) {
      throw .conflict(option, "a run without --token-endpoint")
    }
    if token.secretVariable != nil && token.secretFile != nil {
      throw .conflict("--secret-env", "--secret-file")
    }
  }
}
