/// One option of `appflip-conformance`. The table of them (`CommandLineOptions.table`) is the one source of `--help`,
/// parsing and Docs/COMMAND-LINE.md's table.
package typealias CommandOption = OptionTable<CommandLineOptions>.Option

/// Where an option is listed in `--help` and Docs/COMMAND-LINE.md.
package enum CommandSection: String, Sendable, CaseIterable {
  /// What is tested.
  case implementation = "IMPLEMENTATION (default: the bundled reference handler)"
  /// Which vectors run.
  case vectors = "VECTORS"
  /// What fails a run.
  case gating = "GATING"
  /// What is written.
  case reports = "REPORTS"
}

extension CommandLineOptions {
  /// Every option of the main command, in `--help` order, each listed in the section of its list.
  package static let table = OptionTable(
    [(CommandSection.implementation, implementation), (.vectors, vectors), (.gating, gating), (.reports, reports)]
      .flatMap { section, options in
        options.map { option in
          var option = option
          option.section = section.rawValue
          return option
        }
      })

  private static let implementation: [CommandOption] = [
    .init(
      ["--exec"], "<command>",
      "Test a handler in any language over the subprocess protocol (Docs/PROTOCOL.md), "
        + "e.g. --exec 'python3 Examples/python/appflip_handler.py'."
    ) { $0.exec = $1 },
    .init(
      ["--endpoint"], "<url>",
      "Test an OAuth authorization endpoint with the endpoint vectors (real GET requests)."
    ) { $0.endpoint = $1 },
    .init(
      ["--header"], "<h: v>",
      "With --endpoint: send this header, e.g. for a signed-in test user (repeatable)."
    ) { $0.headers.append($1) },
    .init(["--cookie"], "<n=v>", "With --endpoint: send this cookie (repeatable).") {
      $0.cookies.append($1)
    },
    .init(
      ["--cookie-file"], "<jar>",
      "With --endpoint: send the matching cookies of a curl/Netscape cookie jar."
    ) { $0.endpointStaging.cookieFile = $1 },
    .init(
      ["--login-command"], "<c>",
      "With --endpoint: run c first (sh -c) with APPFLIP_COOKIE_JAR set to a file it must write as a cookie jar "
        + "(e.g. curl -c \"$APPFLIP_COOKIE_JAR\" …); its cookies are sent."
    ) { $0.endpointStaging.loginCommand = $1 },
    .init(
      ["--login-timeout"], "<s>",
      "With --login-command: end it, and whatever it started, after s seconds (default: 120).",
      expected: "a positive number of seconds", OptionReader.seconds
    ) { $0.endpointStaging.loginTimeout = $1 },
    .init(
      ["--param"], "<n=v>",
      "With --endpoint: add this parameter to every request, e.g. prompt=consent (repeatable)."
    ) { (options: inout CommandLineOptions, value: String) throws(UsageError) in
      guard let equals = value.firstIndex(of: "="), equals != value.startIndex else {
        throw .invalidValue(option: "--param", value: value, expected: "name=value, e.g. prompt=consent")
      }
      options.endpointStaging.parameters.append(value)
    },
    .init(
      ["--scope"], "<scope>", "With --endpoint: send this scope instead of the vectors' \"devices\"."
    ) { $0.endpointStaging.scope = $1 },
    .init(
      ["--pkce"], nil, "With --endpoint: send a fresh PKCE S256 code_challenge with every request."
    ) { options, _ in options.endpointStaging.pkce = true },
    .init(
      ["--cacert"], "<file>",
      "With an https --endpoint or --association: trust the server certificate this PEM CA file signed."
    ) { $0.endpointStaging.caCertificate = $1 },
    .init(
      ["--no-preflight"], nil,
      "With --endpoint: skip the request that must get a code first; refusals answered by the server's own page are "
        + "then inconclusive."
    ) { options, _ in options.endpointStaging.preflight = false },
    .init(
      ["--token-endpoint"], "<u>",
      "With --endpoint: exchange each code for an App Flip URL there as Google does, and run the token vectors; the "
        + "client secret comes from $APPFLIP_CLIENT_SECRET."
    ) { $0.token.endpoint = $1 },
    .init(
      ["--secret-env"], "<var>",
      "With --token-endpoint: read the client secret from this environment variable instead (never pass a secret on "
        + "the command line)."
    ) { $0.token.secretVariable = $1 },
    .init(
      ["--secret-file"], "<f>",
      "With --token-endpoint: read the client secret from this file instead."
    ) { $0.token.secretFile = $1 },
    .init(
      ["--token-auth"], "<how>",
      "With --token-endpoint: how Google sends the client's credentials: body (client_id and client_secret in the "
        + "form, its default) or basic (HTTP Basic), as you set it up with Google.", expected: "body or basic",
      { Vector.Exchange.ClientAuth(rawValue: $0.lowercased()) },
      set: { $0.token.auth = $1 }
    ),
    .init(
      ["--code-lifetime"], "<s>",
      "With --token-endpoint: the lifetime your server gives its codes; runs the expiry vectors, which wait that long.",
      expected: "a positive number of seconds", OptionReader.seconds
    ) { $0.token.codeLifetime = $1 },
    .init(
      ["--association"], nil,
      "Test the universal link's association: fetch https://HOST/.well-known/apple-app-site-association for the "
        + "universalLink of --config and check, by Apple's rules, that every App Flip link opens its appID."
    ) { options, _ in options.association = true },
    .init(
      ["--association-file"], "<f>",
      "Like --association, with this local apple-app-site-association file instead of a fetch."
    ) { $0.associationFile = $1 },
    .init(
      ["--config"], "<file>",
      "Partner configuration JSON: clientId, universalLink, allowedRedirectUris, scopes (and appID with "
        + "--association)."
    ) { $0.configPath = $1 },
    .timeout { $0.run.timeout = $1 },
    .init(
      ["--platform"], "<target>",
      "The app's target: ios16 (before iOS 17), ios17 or android. Each link is sent as that platform's URL parser "
        + "delivers it; vectors whose links it cannot deliver are skipped with the reason.",
      expected: "ios16, ios17 or android", { DeliveryPlatform(rawValue: $0.lowercased()) },
      set: { $0.run.platform = $1 }
    ),
    .init(
      ["--jobs"], "<n>",
      "Run vectors on n adapters at once, each vector on one (default: the machine's cores; 1 with --endpoint, "
        + "--association or --max-failures); reports keep the catalog's order.",
      expected: "a positive whole number of adapters", OptionReader.count
    ) { $0.run.jobs = $1 },
  ]

  private static let vectors: [CommandOption] = [
    .init(["--vectors"], "<path>", "Add a vector file or folder (repeatable).") { $0.run.vectors.append($1) },
    .init(["--no-bundled"], nil, "Leave out the bundled vectors.") { options, _ in options.run.bundled = false
    },
    .init(
      ["--filter"], "<glob>", "Run only vectors whose id matches; * and ?, \\ escapes (repeatable)."
    ) { $0.run.filter.idPatterns.append($1) },
    .init(
      ["--tag"], "<tag>",
      "Run only vectors carrying this tag (repeatable); a tag no loaded vector carries is refused."
    ) { $0.run.filter.tags.append($1) },
    .init(
      ["--level"], "<level>",
      "Run only vectors of this level: must, should or may, in any case (repeatable).", expected: "must, should or may",
      { Level(rawValue: $0.lowercased()) },
      set: { $0.run.filter.levels.append($1) }
    ),
    .init(
      ["--flag"], "<bug-class>",
      "Run only vectors flagged with this bug class, e.g. open-redirect (repeatable)."
    ) { $0.run.filter.flags.append($1) },  // checked once the vectors (and a partner's flags.json) are loaded
    .init(
      ["--shard"], "<i/n>",
      "Run only shard i of n (deterministic by id; shards 1..n cover every vector once).",
      expected: "i/n with 1 <= i <= n, e.g. 2/5", VectorShard.init
    ) { $0.run.shard = $1 },
    .init(
      ["--list"], nil,
      "List the selected vectors and exit, one a line, tab-separated: id, level, tags, flags (- for none), and the "
        + "link and verdict under --config (with the allowed URL it uses), or why it is skipped."
    ) { options, _ in options.list = true },
    .init(["--validate"], nil, "Only load and check the vector files, then exit.") { options, _ in
      options.validate = true
    },
  ]

  private static let gating: [CommandOption] = [
    .init(["--strict"], nil, "Count SHOULD findings (warnings) as failures.") { options, _ in
      options.run.strict = true
    },
    .init(
      ["--waivers"], "<file>",
      "Expected failures (id globs with reasons): shown as skipped; a waiver whose vector passes fails the run "
        + "(stale), one that matches no vector is an error; errors are never waived."
    ) { $0.run.waivers = $1 },
    .init(
      ["--write-waivers"], "<f>",
      "Write a waiver file for every failing vector (ids escaped); with --waivers, update that file: keep reasons, "
        + "drop stale waivers, add new ones."
    ) { $0.run.writeWaivers = $1 },
    .init(
      ["--waivers-from"], "<xml>",
      "With --write-waivers: take the failures from this JUnit report instead of running."
    ) { $0.waiversFromPath = $1 },
    .init(
      ["--max-failures"], "<n>", "Stop after n failed or errored vectors; the rest are reported as not run.",
      expected: "a positive whole number", OptionReader.count
    ) { $0.run.maxFailures = $1 },
  ]

  private static let reports: [CommandOption] = [
    .init(["--report"], "<file>", "Where to write the JUnit report (default: Reports/junit.xml).") {
      $0.run.junit = $1
    },
    .init(["--markdown"], "<file>", "Also write a Markdown summary, e.g. \"$GITHUB_STEP_SUMMARY\".") {
      $0.run.markdown = $1
    },
    .init(["--json"], "<file>", "Also write the versioned JSON results (Docs/results.schema.json).") {
      $0.run.json = $1
    },
    .init(["--quiet"], nil, "Print only problems and the summary line.") { options, _ in
      options.quiet = true
    },
    .init(["--version"], nil, "Print the suite version.") { options, _ in options.version = true },
    .init(["-h", "--help"], nil, "Show this help.") { options, _ in options.help = true },
  ]

  /// The text of `--help`, generated from `table`.
  package static var usage: String {
    var lines = [
      "USAGE: appflip-conformance [options]",
      "       appflip-conformance lint <your vector files or folders>...",
      "       appflip-conformance merge [--report <f>] [--markdown <f>] [--json <f>] <shard.json>...",
      "       appflip-conformance merge-junit <out.xml> <shard.xml>...",
      "       appflip-conformance fuzz [options]   (see fuzz --help)",
      "",
      "Runs App Flip conformance vectors against an implementation and writes a JUnit report.",
      "With no options: every bundled vector against the bundled reference handler, JUnit at Reports/junit.xml.",
    ]
    for section in CommandSection.allCases {
      lines += ["", section.rawValue + ":", table.help(section: section.rawValue, column: 24)]
    }
    lines += [
      "",
      "Progress shows on a terminal; colour only on a terminal and never with NO_COLOR set.",
      "",
      "EXIT CODES:",
      "  0    every selected vector passed (warnings allowed unless --strict)",
      "  1    a vector failed or could not be judged, or a waiver is stale",
      "  2    bad usage, a bad configuration, vector or waiver file, a waiver that matches no vector,",
      "       or a selection (--filter, --tag, --level, --flag, --shard) that matches no vector",
      "  3    a report could not be written (the others still were; the error names it)",
      "  130  interrupted (SIGINT); 143: terminated (SIGTERM); 129: hung up (SIGHUP) - the reports list what ran",
      "       and the rest as not run",
    ]
    return lines.joined(separator: "\n")
  }

  /// The options table of Docs/COMMAND-LINE.md, generated from `table`; a test keeps that file equal to it.
  package static var markdownTable: String {
    var rows = ["| option | what it does |", "|---|---|"]
    for section in CommandSection.allCases {
      let title = section.rawValue.prefix { $0 != " " }
      rows.append("| **\(title.prefix(1))\(title.dropFirst().lowercased())** | |")
      for option in table.options where option.section == section.rawValue {
        let names = option.names.map { "`\($0)\(option.value.map { " " + $0 } ?? "")`" }.joined(separator: ", ")
        rows.append("| \(names) | \(markdown(option.help)) |")
      }
    }
    return rows.joined(separator: "\n")
  }

  /// Help text made literal in a Markdown table cell: `\\`, `*` and `|` escaped.
  static func markdown(_ text: String) -> String {
    var out = ""
    for character in text {
      if character == "\\" || character == "*" || character == "|" { out.append("\\") }
      out.append(character)
    }
    return out
  }
}
