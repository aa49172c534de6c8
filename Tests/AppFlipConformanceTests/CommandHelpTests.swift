import AppFlipConformance
import Foundation
import Testing

/// The command line's help and usage errors, quoted whole (as swift-argument-parser tests its own), and
/// Docs/COMMAND-LINE.md's options table, all generated from one option table (`CommandLineOptions.table`).
@Suite("Command line help and usage errors")
struct CommandHelpTests {
  func run(_ arguments: [String]) async -> (ConformanceCommand.ExitCode, CapturedOutput) {
    let captured = CapturedOutput()
    let code = await ConformanceCommand.run(arguments, output: captured.output)
    return (code, captured)
  }

  @Test("--help prints the whole usage, generated from the option table")
  func help() async {
    let (code, output) = await run(["--help"])
    #expect(code == .success)
    #expect(
      output.out == #"""
        USAGE: appflip-conformance [options]
               appflip-conformance lint <your vector files or folders>...
               appflip-conformance merge [--report <f>] [--markdown <f>] [--json <f>] <shard.json>...
               appflip-conformance merge-junit <out.xml> <shard.xml>...
               appflip-conformance fuzz [options]   (see fuzz --help)

        Runs App Flip conformance vectors against an implementation and writes a JUnit report.
        With no options: every bundled vector against the bundled reference handler, JUnit at Reports/junit.xml.

        IMPLEMENTATION (default: the bundled reference handler):
          --exec <command>      Test a handler in any language over the subprocess protocol (Docs/PROTOCOL.md), e.g. --exec
                                'python3 Examples/python/appflip_handler.py'.
          --endpoint <url>      Test an OAuth authorization endpoint with the endpoint vectors (real GET requests).
          --header <h: v>       With --endpoint: send this header, e.g. for a signed-in test user (repeatable).
          --cookie <n=v>        With --endpoint: send this cookie (repeatable).
          --cookie-file <jar>   With --endpoint: send the matching cookies of a curl/Netscape cookie jar.
          --login-command <c>   With --endpoint: run c first (sh -c) with APPFLIP_COOKIE_JAR set to a file it must write as a
                                cookie jar (e.g. curl -c "$APPFLIP_COOKIE_JAR" …); its cookies are sent.
          --login-timeout <s>   With --login-command: end it, and whatever it started, after s seconds (default: 120).
          --param <n=v>         With --endpoint: add this parameter to every request, e.g. prompt=consent (repeatable).
          --scope <scope>       With --endpoint: send this scope instead of the vectors' "devices".
          --pkce                With --endpoint: send a fresh PKCE S256 code_challenge with every request.
          --cacert <file>       With an https --endpoint or --association: trust the server certificate this PEM CA file
                                signed.
          --no-preflight        With --endpoint: skip the request that must get a code first; refusals answered by the
                                server's own page are then inconclusive.
          --token-endpoint <u>  With --endpoint: exchange each code for an App Flip URL there as Google does, and run the
                                token vectors; the client secret comes from $APPFLIP_CLIENT_SECRET.
          --secret-env <var>    With --token-endpoint: read the client secret from this environment variable instead (never
                                pass a secret on the command line).
          --secret-file <f>     With --token-endpoint: read the client secret from this file instead.
          --token-auth <how>    With --token-endpoint: how Google sends the client's credentials: body (client_id and
                                client_secret in the form, its default) or basic (HTTP Basic), as you set it up with Google.
          --code-lifetime <s>   With --token-endpoint: the lifetime your server gives its codes; runs the expiry vectors,
                                which wait that long.
          --association         Test the universal link's association: fetch
                                https://HOST/.well-known/apple-app-site-association for the universalLink of --config and
                                check, by Apple's rules, that every App Flip link opens its appID.
          --association-file <f>  Like --association, with this local apple-app-site-association file instead of a fetch.
          --config <file>       Partner configuration JSON: clientId, universalLink, allowedRedirectUris, scopes (and appID
                                with --association).
          --timeout <seconds>   Seconds one step may take before it is an error (default: 10).
          --platform <target>   The app's target: ios16 (before iOS 17), ios17 or android. Each link is sent as that
                                platform's URL parser delivers it; vectors whose links it cannot deliver are skipped with the
                                reason.
          --jobs <n>            Run vectors on n adapters at once, each vector on one (default: the machine's cores; 1 with
                                --endpoint, --association or --max-failures); reports keep the catalog's order.

        VECTORS:
          --vectors <path>      Add a vector file or folder (repeatable).
          --no-bundled          Leave out the bundled vectors.
          --filter <glob>       Run only vectors whose id matches; * and ?, \ escapes (repeatable).
          --tag <tag>           Run only vectors carrying this tag (repeatable); a tag no loaded vector carries is refused.
          --level <level>       Run only vectors of this level: must, should or may, in any case (repeatable).
          --flag <bug-class>    Run only vectors flagged with this bug class, e.g. open-redirect (repeatable).
          --shard <i/n>         Run only shard i of n (deterministic by id; shards 1..n cover every vector once).
          --list                List the selected vectors and exit, one a line, tab-separated: id, level, tags, flags (- for
                                none), and the link and verdict under --config (with the allowed URL it uses), or why it is
                                skipped.
          --validate            Only load and check the vector files, then exit.

        GATING:
          --strict              Count SHOULD findings (warnings) as failures.
          --waivers <file>      Expected failures (id globs with reasons): shown as skipped; a waiver whose vector passes
                                fails the run (stale), one that matches no vector is an error; errors are never waived.
          --write-waivers <f>   Write a waiver file for every failing vector (ids escaped); with --waivers, update that file:
                                keep reasons, drop stale waivers, add new ones.
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
          130  interrupted (SIGINT); 143: terminated (SIGTERM); 129: hung up (SIGHUP) - the reports list what ran
               and the rest as not run
        """#)
  }

  @Test(
    "Each usage error is one whole sentence that quotes the bad input and says what to do, and exits 2",
    arguments: [
      (["--filtr", "x"], "error: Unknown option '--filtr'; did you mean '--filter'?"),
      (["--frobnicate"], "error: Unknown option '--frobnicate'; see --help."),
      (["--strict=yes"], "error: Unknown option '--strict=yes'; did you mean '--strict'?"),
      (["--timeout", "soon"], "error: Option '--timeout' got 'soon'; give a positive number of seconds."),
      (["--report"], "error: Option '--report' needs a value, e.g. '--report <value>'."),
      (["--report", "--quiet"], "error: Option '--report' needs a value, e.g. '--report <value>'."),
      (["--report="], "error: Option '--report' needs a value, e.g. '--report <value>'."),
      (["--no-bundled"], "error: '--no-bundled' leaves no vectors; add '--vectors <path>'."),
      (["--level", "often"], "error: Option '--level' got 'often'; give must, should or may."),
      (["--shard", "3/2"], "error: Option '--shard' got '3/2'; give i/n with 1 <= i <= n, e.g. 2/5."),
      (["--jobs", "0"], "error: Option '--jobs' got '0'; give a positive whole number of adapters."),
      (["--max-failures", "-1"], "error: Option '--max-failures' got '-1'; give a positive whole number."),
      (["--platform", "ios15"], "error: Option '--platform' got 'ios15'; give ios16, ios17 or android."),
      (["--exec", "a", "--endpoint", "http://x/"], "error: '--exec' cannot go with '--endpoint'; drop one."),
      (["--cookie", "a=b"], "error: '--cookie' cannot go with the app profile; it needs --endpoint."),
      (["--waivers-from", "r.xml"], "error: '--waivers-from' cannot go with a run; it needs --write-waivers."),
      (
        ["--param", "=x", "--endpoint", "http://x/"],
        "error: Option '--param' got '=x'; give name=value, e.g. prompt=consent."
      ),
      (
        ["merge", "--json", "out.json"],
        "error: 'merge' needs the JSON results (--json) of each shard, e.g. 'merge --report Reports/junit.xml "
          + "--markdown summary.md --json results.json shard-1.json shard-2.json'."
      ),
      (
        ["merge", "--quiet", "a.json"],
        "error: '--quiet' cannot go with merge, which takes --report, --markdown and --json."
      ),
      (
        ["merge-junit", "out.xml"],
        "error: 'merge-junit' needs the output file, then at least one shard report, "
          + "e.g. 'merge-junit Reports/junit.xml shard-1.xml shard-2.xml'."
      ),
      (
        ["--tag", "redirect-ur", "--list"],
        "error: --tag 'redirect-ur' matches none of the \(VectorLoader.loadBundled(.app).vectors.count) loaded vectors; "
          + "did you mean --tag 'redirect-uri'?"
      ),
    ])
  func usageError(_ arguments: [String], _ message: String) async {
    let (code, output) = await run(arguments)
    #expect(code == .usage)
    #expect(output.err == message)
    #expect(output.out == "")
  }

  @Test(
    "fuzz takes --timeout as a run does: the same help, and the same sentence quoting the bad value",
    arguments: ["soon", "0", "-1", "nan", "inf", "1e400"])
  func fuzzTimeout(_ value: String) async {
    for arguments in [["--timeout", value], ["fuzz", "--timeout", value]] {
      let (code, output) = await run(arguments)
      #expect(code == .usage)
      #expect(
        output.err == "error: Option '--timeout' got '\(value)'; give a positive number of seconds.", "\(arguments)")
    }
    let help = "Seconds one step may take before it is an error (default: 10)."
    #expect(CommandLineOptions.table.named("--timeout")?.help == help)
    let (code, output) = await run(["fuzz", "--help"])
    #expect(code == .success)
    #expect(output.out.contains("  --timeout <seconds>   " + help), "\(output.out)")
  }

  @Test("--flag refuses a bug class that Vectors/flags.json does not define, listing the ones it does")
  func unknownFlag() async {
    let (code, output) = await run(["--flag", "open-redirekt"])
    #expect(code == .usage)
    #expect(
      output.err
        == "error: Option '--flag' got 'open-redirekt'; give a bug class from Vectors/flags.json: "
        + FlagRegistry.bundled.flags.keys.sorted().joined(separator: ", ") + ".")
  }

  @Test("--level takes MUST, Should or may in any case")
  func levelInAnyCase() async {
    let (code, output) = await run(["--level", "MUST", "--filter", "redirect-uri/allowed/prod-opa", "--list"])
    #expect(code == .success)
    #expect(output.out.hasPrefix("redirect-uri/allowed/prod-opa\tmust\t"), "\(output.out)")
    let should = try? CommandLineOptions.parse(["--level", "Should"])
    #expect(should?.run.filter.levels == [.should])
  }

  @Test("--list shows tags and flags in columns of their own, without duplicates, - when there are none")
  func listColumns() async throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("list-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let vectors = folder.appendingPathComponent("v.json")
    try Fixtures.file([
      Fixtures.accepted(id: "t/tagged", extra: #""tags": ["x", "y", "x"], "flags": ["open-redirect"],"#),
      Fixtures.accepted(id: "t/bare"),
    ]).write(to: vectors)
    let (code, output) = await run(["--no-bundled", "--vectors", vectors.path, "--list"])
    #expect(code == .success)
    let rows = output.out.split(separator: "\n").map { $0.split(separator: "\t").prefix(4).joined(separator: " ") }
    #expect(rows == ["t/tagged must x,y open-redirect", "t/bare must - -"])
  }

  @Test("--version prints the version every report carries")
  func version() async {
    let (code, output) = await run(["--version"])
    #expect(code == .success)
    #expect(output.out == "appflip-conformance \(SuiteInfo.version) (commit \(SuiteInfo.commit.prefix(12)))")
  }

  @Test("Docs/COMMAND-LINE.md's options table is the one generated from the option table")
  func readmeTable() throws {
    let document = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("Docs/COMMAND-LINE.md")
    let text = try String(contentsOf: document, encoding: .utf8)
    let table = CommandLineOptions.markdownTable
    #expect(text.contains("\n" + table + "\n"), "Docs/COMMAND-LINE.md lacks the generated options table:\n\(table)")
  }
}
