/// The parsed command line of `appflip-conformance`.
package struct CommandLineOptions: Sendable, Hashable {
  var vectorPaths: [String] = []
  var bundled = true
  var configPath: String?
  var reportPath = "Reports/junit.xml"
  var filter = VectorFilter()
  var strict = false
  var timeout = 10.0
  var platform: DeliveryPlatform?
  /// `--jobs N`: how many adapters run vectors at once; nil for the default (`ConformanceCommand.jobs`).
  var jobs: Int?
  var waiversPath: String?
  var writeWaiversPath: String?
  var waiversFromPath: String?
  var shard: VectorShard?
  var maxFailures: Int?
  var markdownPath: String?
  var jsonPath: String?
  var quiet = false
  var mergeOutput: String?
  var mergeInputs: [String] = []
  var exec: String?
  var endpoint: String?
  var headers: [String] = []
  var cookies: [String] = []
  var endpointStaging = EndpointStagingOptions()
  var list = false
  var validate = false
  var help = false
  var version = false

  static let usage = """
    USAGE: appflip-conformance [options]
           appflip-conformance merge-junit <out.xml> <shard.xml>...

    Runs App Flip conformance vectors against an implementation and writes a JUnit report.
    With no options: every bundled vector against the bundled reference handler, JUnit at Reports/junit.xml.

    IMPLEMENTATION (default: the bundled reference handler):
      --exec <command>      Test a handler in any language over the subprocess protocol (Docs/PROTOCOL.md),
                            e.g. --exec 'python3 Examples/python/appflip_handler.py'.
      --endpoint <url>      Test an OAuth authorization endpoint with the endpoint vectors (real GET requests).
      --header <h: v>       With --endpoint: send this header, e.g. for a signed-in test user (repeatable).
      --cookie <n=v>        With --endpoint: send this cookie (repeatable).
      --cookie-file <jar>   With --endpoint: send the matching cookies of a curl/Netscape cookie jar.
      --login-command <c>   With --endpoint: run c first (sh -c) with APPFLIP_COOKIE_JAR set to a file it must
                            write as a cookie jar (e.g. curl -c "$APPFLIP_COOKIE_JAR" …); its cookies are sent.
      --param <n=v>         With --endpoint: add this parameter to every request, e.g. prompt=consent (repeatable).
      --scope <scope>       With --endpoint: send this scope instead of the vectors' "devices".
      --pkce                With --endpoint: send a fresh PKCE S256 code_challenge with every request.
      --cacert <file>       With an https --endpoint: trust the server certificate this PEM CA file signed.
      --no-preflight        With --endpoint: skip the request that must get a code first; refusals answered by
                            the server's own page are then inconclusive.
      --config <file>       Partner configuration JSON: clientId, universalLink, allowedRedirectUris.
      --timeout <seconds>   Seconds one step may take before it is an error (default: 10).
      --platform <target>   The app's target: ios16 (before iOS 17), ios17 or android. Vectors whose links
                            that platform's URL parser cannot deliver are skipped with the reason.
      --jobs <n>            Run vectors on n adapters at once, each vector on one (default: the machine's
                            cores; 1 with --endpoint or --max-failures); reports keep the catalog's order.

    VECTORS:
      --vectors <path>      Add a vector file or folder (repeatable).
      --no-bundled          Leave out the bundled vectors.
      --filter <glob>       Run only vectors whose id matches; * and ?, \\ escapes (repeatable).
      --tag <tag>           Run only vectors carrying this tag (repeatable).
      --level <level>       Run only vectors of this level: must, should or may (repeatable).
      --flag <bug-class>    Run only vectors flagged with this bug class, e.g. open-redirect (repeatable).
      --shard <i/n>         Run only shard i of n (deterministic by id; shards 1..n cover every vector once).
      --list                List the selected vectors (id, level, tags and flags, and the link and verdict
                            under --config, or why it is skipped) and exit.
      --validate            Only load and check the vector files, then exit.

    GATING:
      --strict              Count SHOULD findings (warnings) as failures.
      --waivers <file>      Expected failures (id globs with reasons): shown as skipped; a waiver whose
                            vector passes fails the run (stale), one that matches no vector is an error;
                            errors are never waived.
      --write-waivers <f>   Write a waiver file for every failing vector (ids escaped); with --waivers,
                            update that file: keep reasons, drop stale waivers, add new ones.
      --waivers-from <xml>  With --write-waivers: take the failures from this JUnit report instead of running.
      --max-failures <n>    Stop after n failed or errored vectors; the rest are reported as not run.

    REPORTS:
      --report <file>       Where to write the JUnit report (default: Reports/junit.xml).
      --markdown <file>     Also write a Markdown summary, e.g. "$GITHUB_STEP_SUMMARY".
      --json <file>         Also write the versioned JSON results (Docs/results.schema.json).
      --quiet               Print only problems and the summary line.
      --version             Print the suite version.
      -h, --help            Show this help.

    Progress shows on a terminal; colour only on a terminal and never with NO_COLOR set.

    EXIT CODES:
      0    every selected vector passed (warnings allowed unless --strict)
      1    a vector failed or could not be judged, or a waiver is stale
      2    bad usage, a bad configuration, vector or waiver file, a waiver that matches no vector,
           or a selection (--filter, --tag, --level, --flag, --shard) that matches no vector
      3    a report could not be written (the others still were; the error names it)
      130  interrupted (SIGINT); 143: terminated (SIGTERM) - the reports list what ran and the rest as not run
    """

  static let flags =
    ["--no-bundled", "--strict", "--list", "--validate", "--quiet", "--version", "--help", "-h"]
    + EndpointStagingOptions.flags
  static let valued =
    [
      "--vectors", "--config", "--report", "--filter", "--tag", "--timeout", "--exec", "--endpoint", "--header",
      "--cookie", "--level", "--flag", "--shard", "--waivers", "--write-waivers", "--waivers-from", "--max-failures",
      "--markdown", "--json", "--platform", "--jobs",
    ] + EndpointStagingOptions.valued

  /// Parses arguments, with errors that quote the bad input.
  package static func parse(_ arguments: [String]) throws(UsageError) -> CommandLineOptions {
    var options = CommandLineOptions()
    var rest = arguments[...]
    if rest.first == "merge-junit" {
      rest = rest.dropFirst()
      guard let output = rest.popFirst(), !rest.isEmpty else {
        throw .missingValue(option: "merge-junit <out.xml> <shard.xml>")
      }
      options.mergeOutput = output
      options.mergeInputs = Array(rest)
      return options
    }
    while let argument = rest.popFirst() {
      var name = argument
      var inlineValue: String?
      if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
        name = String(argument[..<equals])
        inlineValue = String(argument[argument.index(after: equals)...])
      }
      if EndpointStagingOptions.valued.contains(name) || EndpointStagingOptions.flags.contains(name) {
        var value = inlineValue
        if EndpointStagingOptions.valued.contains(name) {
          if inlineValue == nil, let next = rest.first, flags.contains(next) || valued.contains(next) {
            throw .missingValue(option: name)
          }
          guard let given = inlineValue ?? rest.popFirst(), !given.isEmpty else { throw .missingValue(option: name) }
          value = given
        } else if inlineValue != nil {
          throw .unknownOption(argument)
        }
        try options.endpointStaging.set(name, value)
      } else if valued.contains(name) {
        // A value that is itself an option (`--report --quiet`), or an empty one, means the value was left out.
        if inlineValue == nil, let next = rest.first, flags.contains(next) || valued.contains(next) {
          throw .missingValue(option: name)
        }
        guard let value = inlineValue ?? rest.popFirst(), !value.isEmpty else { throw .missingValue(option: name) }
        switch name {
        case "--vectors": options.vectorPaths.append(value)
        case "--config": options.configPath = value
        case "--report": options.reportPath = value
        case "--filter": options.filter.idPatterns.append(value)
        case "--tag": options.filter.tags.append(value)
        case "--exec": options.exec = value
        case "--endpoint": options.endpoint = value
        case "--header": options.headers.append(value)
        case "--cookie": options.cookies.append(value)
        case "--level":
          guard let level = Level(rawValue: value) else {
            throw .invalidValue(option: name, value: value, expected: "must, should or may")
          }
          options.filter.levels.append(level)
        case "--flag":
          guard FlagRegistry.bundled.flags[value] != nil else {
            throw .invalidValue(
              option: name, value: value,
              expected: "a bug class from Vectors/flags.json: "
                + FlagRegistry.bundled.flags.keys.sorted().joined(separator: ", "))
          }
          options.filter.flags.append(value)
        case "--shard":
          guard let shard = VectorShard(value) else {
            throw .invalidValue(option: name, value: value, expected: "i/n with 1 <= i <= n, e.g. 2/5")
          }
          options.shard = shard
        case "--jobs":
          guard let count = Int(value), count > 0 else {
            throw .invalidValue(option: name, value: value, expected: "a positive whole number of adapters")
          }
          options.jobs = count
        case "--max-failures":
          guard let count = Int(value), count > 0 else {
            throw .invalidValue(option: name, value: value, expected: "a positive whole number")
          }
          options.maxFailures = count
        case "--waivers": options.waiversPath = value
        case "--write-waivers": options.writeWaiversPath = value
        case "--waivers-from": options.waiversFromPath = value
        case "--markdown": options.markdownPath = value
        case "--json": options.jsonPath = value
        case "--platform":
          guard let platform = DeliveryPlatform(rawValue: value.lowercased()) else {
            throw .invalidValue(option: name, value: value, expected: "ios16, ios17 or android")
          }
          options.platform = platform
        default:
          guard let seconds = Double(value), seconds > 0, seconds.isFinite else {
            throw .invalidValue(option: name, value: value, expected: "a positive number of seconds")
          }
          options.timeout = seconds
        }
      } else if flags.contains(name), inlineValue == nil {
        switch name {
        case "--no-bundled": options.bundled = false
        case "--strict": options.strict = true
        case "--list": options.list = true
        case "--validate": options.validate = true
        case "--quiet": options.quiet = true
        case "--version": options.version = true
        default: options.help = true
        }
      } else {
        throw .unknownOption(argument)
      }
    }
    if !options.bundled && options.vectorPaths.isEmpty && !options.help && !options.version {
      throw .noVectors
    }
    if options.waiversFromPath != nil && options.writeWaiversPath == nil {
      throw .conflict("--waivers-from", "a run; it needs --write-waivers")
    }
    if options.exec != nil && options.endpoint != nil {
      throw .conflict("--exec", "--endpoint")
    }
    if options.endpoint == nil,
      let option = options.headers.isEmpty
        ? (options.cookies.isEmpty ? options.endpointStaging.firstGiven : "--cookie") : "--header"
    {
      throw .conflict(option, "the app profile; it needs --endpoint")
    }
    return options
  }
}

/// A command line that cannot be run as given.
package enum UsageError: Error, Sendable, Hashable {
  /// An option the tool does not know.
  case unknownOption(String)
  /// An option given without its value.
  case missingValue(option: String)
  /// An option whose value cannot be used.
  case invalidValue(option: String, value: String, expected: String)
  /// No vectors are left to run.
  case noVectors
  /// Two options that cannot go together.
  case conflict(String, String)
}

extension UsageError: CustomStringConvertible {
  /// One sentence that quotes the bad input and says what to do.
  package var description: String {
    switch self {
    case .unknownOption(let argument):
      let known = CommandLineOptions.flags + CommandLineOptions.valued
      let name = String(argument.prefix { $0 != "=" })
      let hint = Spelling.closest(to: name, in: known, maxEdits: 3)
      return "Unknown option '\(argument)'\(hint.map { "; did you mean '\($0)'?" } ?? "; see --help.")"
    case .missingValue(let option):
      return "Option '\(option)' needs a value, e.g. '\(option) <value>'."
    case .invalidValue(let option, let value, let expected):
      return "Option '\(option)' got '\(value)'; give \(expected)."
    case .noVectors:
      return "'--no-bundled' leaves no vectors; add '--vectors <path>'."
    case .conflict(let option, let other):
      return "'\(option)' cannot go with \(other.hasPrefix("-") ? "'\(other)'" : other); drop one."
    }
  }
}
