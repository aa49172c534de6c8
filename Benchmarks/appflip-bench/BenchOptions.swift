import AppFlipConformance

/// The command line of `appflip-bench`.
struct BenchOptions: Sendable, Hashable {
  /// `--rounds`: it overrides, in either order, the round count `--quick` sets.
  var givenRounds: Int?
  /// `--quick`: fewer and shorter rounds.
  var quick = false
  /// Measured rounds per figure; the median is printed.
  var rounds: Int { givenRounds ?? (quick ? 3 : 5) }
  /// The shortest a measured round may last, in seconds; passes are repeated until it does.
  var roundSeconds: Double { quick ? 0.25 : 2.0 }
  /// Measured rounds of the JUnit figure.
  var junitRounds: Int { min(rounds, quick ? 1 : 3) }
  /// Synthetic results in the JUnit figure.
  var junitResults = 100_000
  /// The figures to print; all but `swifttest` (which builds a package for minutes) by default.
  var figures: Set<Figure> = Figure.defaults
  /// Whether to time the in-process harness's parts on their own.
  var breakdown = false

  /// The options' table: it parses the command line and prints the OPTIONS section of the usage.
  static let table = OptionTable(options)
  private static let options: [OptionTable<BenchOptions>.Option] = [
    .init(
      ["--rounds"], "N", "Measured rounds per figure, each lasting at least 2 s; the median is printed (default: 5).",
      expected: "a whole number of at least 1", OptionReader.count
    ) { $0.givenRounds = $1 },
    .init(["--quick"], nil, "3 rounds of at least 0.25 s, one JUnit round: a smoke run, not figures to quote.") {
      options, _ in options.quick = true
    },
    .init(
      ["--only"], "F",
      """
      Print only this figure: inprocess (with the bare loop), subprocess, transport, fuzz, serial,
      junit, scale, merge, swifttest (repeatable; swifttest only when asked for).
      """, expected: "one of: " + Figure.allCases.map(\.rawValue).joined(separator: ", "), Figure.init
    ) { options, figure in
      if options.figures == Figure.defaults { options.figures = [] }
      options.figures.insert(figure)
    },
    .init(
      ["--breakdown"], nil, "Also time the harness's parts on their own: rendering, the adapter, the judge, the rest."
    ) { options, _ in options.breakdown = true },
    .init(["-h", "--help"], nil, "Show this help.") { _, _ in },
  ]

  static let usage = """
    USAGE: appflip-bench [--rounds N] [--quick] [--only FIGURE ...] [--breakdown]

    Prints how fast the harness is. Figures only: it never asserts a timing. Build it in release mode:
      swift run -c release appflip-bench

      in-process   every bundled vector through Runner + InProcessAdapter + ReferenceHandlerAdapter
      bare loop    AppFlipReferenceHandler.handle on the same links, rendered up front, trivial authorizer
      subprocess   every bundled vector through SubprocessAdapter and python3 Examples/python/appflip_handler.py,
                   --jobs 1 and --jobs 2 back to back and their ratio
      transport    Tests/Fixtures/subprocess/trivial_adapter.py through SubprocessAdapter.handle against the raw pipe
                   round trip to the same script, and their ratio
      fuzz         fuzz --jobs 1 and --jobs 2 back to back, seed by seed, in links/s and their ratio: in-process
                   against the reference handler, and over --exec with the Python example
      serial       the bundled corpus copied to about 10 000 vectors in files, run by appflip-conformance itself,
                   in-process and over --exec, --jobs 1 and 2: the share of wall time before the first result and
                   after the last (only the coordinating thread works), and the --jobs speed-up Amdahl's law
                   gives it for 2, 4, 8 and 16 cores beside the measured --jobs 2 one
      JUnit        render and write a report of 100 000 synthetic results to a temporary file; the share of a
                   ConformanceHarness run over the bundled vectors that goes to its JUnit report
      scale        load 1 000, 10 000 and 100 000 synthetic vectors from files; merge-junit 100 000 test cases
      merge        only merge-junit of 100 000 test cases (part of scale)
      swift test   only with --only swifttest: a package outside this one runs the README's harness under swift test
                   (a debug build) against a failing handler, with and without its JUnit report, alternating:
                   how much longer the test phase is with it, and the time spent on it summed

    OPTIONS:
    \(table.help())
    """
}

/// What `appflip-bench` can measure.
enum Figure: String, Sendable, Hashable, CaseIterable {
  /// The harness in-process against the reference handler, the bare loop, and their ratio.
  case inprocess
  /// The subprocess adapter with the Python example handler.
  case subprocess
  /// The subprocess transport: a trivial adapter through `SubprocessAdapter` against the raw pipe round trip.
  case transport
  /// `fuzz --jobs 1` and `--jobs 2`, in-process and over `--exec`.
  case fuzz
  /// The serial share of a 10 000-vector command run, in-process and over `--exec`, and its Amdahl speed-ups.
  case serial
  /// Rendering and writing a large JUnit report.
  case junit
  /// Loading 1k, 10k and 100k vectors, and merging JUnit shards of 100k test cases.
  case scale
  /// Merging JUnit shards of 100k test cases only.
  case merge
  /// A partner package's `swift test` with the harness against a failing handler: the JUnit share of its test phase.
  case swifttest

  /// The figures printed when none is asked for.
  static let defaults = Set(allCases).subtracting([.swifttest])
}
