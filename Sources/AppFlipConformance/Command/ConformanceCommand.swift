import AppFlipVectors
import Foundation

/// The `appflip-conformance` command: loads vectors, runs them, prints the summary, writes reports, and returns the exit code.
package enum ConformanceCommand {
  /// Exit codes (README "In CI", Docs/COMMAND-LINE.md "Exit codes").
  package enum ExitCode: Int32, Sendable {
    /// Every selected vector passed (warnings allowed unless strict).
    case success = 0
    /// A vector failed or could not be judged, or a waiver is stale.
    case failure = 1
    /// Bad usage, a bad configuration, vector or waiver file, a waiver that matches no vector, or a selection that
    /// matches no vector (`EmptySelection`).
    case usage = 2
    /// A report could not be written (the others still were); the error names it.
    case reportFailed = 3
    /// The run was interrupted (SIGINT); the reports list what ran.
    case interrupted = 130
    /// The run was terminated (SIGTERM); the reports list what ran.
    case terminated = 143
    /// The run's terminal hung up (SIGHUP); the reports list what ran.
    case hungUp = 129

    /// The exit code of a run a signal stopped: 130 for SIGINT, 143 for SIGTERM, 129 for SIGHUP; `nil` for any other
    /// stop, whose exit code follows from the results.
    init?(stoppedBy reason: StopReason) {
      switch reason {
      case .interrupted: self = .interrupted
      case .terminated: self = .terminated
      case .hungUp: self = .hungUp
      case .maxFailures, .unusableInput: return nil
      }
    }
  }

  /// Runs the command with these arguments (without the program name); `control` lets a caller stop the run, and
  /// defaults to one that stops after `--max-failures`.
  package static func run(
    _ arguments: [String], output: Output = .standard, control: RunControl? = nil
  ) async -> ExitCode {
    signal(SIGPIPE, SIG_IGN)
    if arguments.first == "fuzz" {
      return await FuzzCommand.run(Array(arguments.dropFirst()), output: output, control: control ?? RunControl())
    }
    let options: CommandLineOptions
    do {
      options = try CommandLineOptions.parse(arguments)
      // Help and the version are printed whatever else the command line says.
      if !options.help && !options.version { try options.filePaths.check() }
    } catch {
      output.err("error: \(ConsoleText.safe(error.description))")
      return .usage
    }
    if options.help {
      output.out(CommandLineOptions.usage)
      return .success
    }
    if options.version {
      output.out(SuiteInfo.described)
      return .success
    }
    if !options.lintPaths.isEmpty {
      return lint(options.lintPaths, output: output)
    }
    if !options.mergeResults.isEmpty {
      return mergeResults(options, output: output)
    }
    if let merged = options.mergeOutput {
      return mergeJUnit(into: merged, from: options.mergeInputs, output: output)
    }
    if let report = options.waiversFromPath, let target = options.writeWaivers {
      return writeWaivers(fromReport: report, updating: options.waivers, to: target, output: output)
    }
    let leftovers = Leftovers()
    defer { leftovers.free() }  // runVectors has returned: nothing else holds them
    do {
      return try await runVectors(
        options, output: output, control: control ?? RunControl(maxFailures: options.maxFailures),
        leftovers: leftovers)
    } catch {
      output.err("error: \(ConsoleText.safe(String(describing: error)))")
      return .usage
    }
  }

  /// What a vector expands to under a configuration, for `--list`: its first link and verdict, and the allowed URL
  /// `{redirect_uri}` stands for when there are several, or why it is skipped.
  static func expansion(of vector: Vector, profile: VectorFile.Profile, under configuration: PartnerConfiguration)
    -> String
  {
    let configuration = vector.configuration?.applied(to: configuration) ?? configuration
    switch RenderedStep.render(vector, with: configuration, profile: profile) {
    case .failure(let reason):
      return "skipped: " + reason.message
    case .success(let steps):
      guard let step = steps.first else { return "" }
      var more = steps.count > 1 ? " (+\(steps.count - 1) steps)" : ""
      if !vector.exchanges.isEmpty { more += " (+\(Count.of(vector.exchanges.count, "token request")))" }
      let url =
        configuration.allowList.urls.count > 1 ? " with {redirect_uri} = \(Quoted.string(step.redirectURI))" : ""
      // The link as a failure's evidence shows it: whole up to the same length, so a partner can send it by hand.
      let link = Quoted.string(step.link, limit: VectorResult.Evidence.shownLink)
      return "\(step.expect.verdict.rawValue) \(link)\(more)\(url)"
    }
  }

  /// One line of `--list`, tab-separated: id, level, tags, flags (each column its own, without duplicates, `-` when
  /// empty), and what the vector expands to under the configuration.
  static func listLine(_ loaded: LoadedVector, under configuration: PartnerConfiguration) -> String {
    func column(_ values: [String]) -> String {
      var seen = Set<String>()
      let unique = values.filter { seen.insert($0).inserted }
      return unique.isEmpty ? "-" : unique.joined(separator: ",")
    }
    let vector = loaded.vector
    return ConsoleText.line(
      [
        vector.id, vector.level.rawValue, column(vector.tags), column(vector.flags),
        expansion(of: vector, profile: loaded.profile, under: configuration),
      ].joined(separator: "\t"))
  }

  /// Loads, selects, runs, applies waivers, reports; a bad configuration or waiver file still writes every report.
  static func runVectors(
    _ options: CommandLineOptions, output: Output, control: RunControl, leftovers: Leftovers
  ) async throws -> ExitCode {
    if let missing = BundledVectors.missing {
      guard !options.bundled else {
        output.err("error: \(missing), or pass --no-bundled with --vectors.")
        return .usage
      }
      output.err("warning: \(missing); until then, vectors citing the bundled flags cannot be loaded.")
    }
    var endpoint = options.exec == nil ? try makeEndpoint(options) : nil
    let token = endpoint == nil ? nil : try makeTokenEndpoint(options)
    let interruption = InterruptionWatch(control: control)
    defer { interruption.stop() }
    var setup = SetupProblems()
    let configuration =
      setup.load(.configurationFile, options.configPath) { try PartnerConfiguration.load($0) } ?? .default
    let waivers = setup.load(.waiverFile, options.waivers) { try WaiverFile.load($0) }
    let association = try makeAssociation(options, universalLink: configuration.universalLink)
    if association != nil, configuration.appID == nil, setup.results.isEmpty {
      setup.add(.configurationFile, options.configPath ?? "--config", AssociationAdapter.missingAppID)
    }
    let adapter =
      endpoint.map { endpointRun($0, token: token) } ?? association
      ?? makeAdapter(exec: options.exec, timeout: options.timeout)
    // The implementation starts while the vectors load (a Python handler takes 30 ms, a JVM seconds).
    if !options.validate, !options.list, setup.stopReason == nil, control.stopReason == nil { adapter.prepare() }

    var parts = loadVectors(options, profile: adapter.profile, control: control, watch: interruption)
      .makeAsyncIterator()
    let stopLoading = interruption.onStop  // the sign-in and preflight watch signals meanwhile
    var received = [await parts.next() ?? VectorCatalog()]  // the partner definitions come first
    if control.stopReason == nil, let unknown = options.filter.unknownFlag(definedBy: received[0].definitions) {
      adapter.shutdown()  // prepared: started while the definitions loaded
      output.err("error: \(ConsoleText.safe(unknown.description))")
      return .usage
    }
    if options.validate || options.list {
      while let part = await parts.next() { received.append(part) }
      return listOrValidate(
        VectorCatalog.combined(received), setup: setup, configuration: configuration, options: options,
        output: output, control: control)
    }
    if let reason = setup.stopReason { control.stop(reason) }
    // An endpoint's session (AF-EP-5, AF-EP-7): the login and cookie jar, then the preflight that proves it works.
    var signInProblem: String?
    var preflightStop: String?
    if control.stopReason == nil, var signingIn = endpoint {
      signInProblem = await signIn(&signingIn, options: options, watch: interruption)
      endpoint = signingIn
      if control.stopReason == nil && signInProblem == nil {
        preflightStop = await preflight(signingIn, options: options, configuration: configuration, watch: interruption)
      }
      interruption.onStop = stopLoading  // the login's and the preflight's cancel are spent: a signal ends loading
    }
    // Interrupted before the vectors: they are not run, not inconclusive.
    let stop: String? =
      control.stopReason != nil
      ? nil
      : signInProblem.map { "the test user's session could not be set up: \($0)" }
        ?? preflightStop.map { "the preflight request got no code: \($0)" }
    // The crash journal: the JUnit report kept current as the run goes, each vector added as it loads.
    let startedAt = Date()
    let journal = RunJournal(
      RunRecord(
        results: setup.results, implementation: adapter.name, configuration: configuration, startedAt: startedAt,
        registry: received[0].definitions.registry),
      path: options.junit)
    for (index, result) in setup.results.enumerated() { journal.finish(index, result) }
    let shownCount = Locked(0)
    let planned = Locked(0)  // the count grows as the vectors load
    let shown: @Sendable (String) -> Void = { id in
      guard !options.quiet, let show = output.progress else { return }
      let count = shownCount.withLock {
        $0 += 1
        return $0
      }
      show("[\(count)/\(planned.withLock { $0 })] \(ConsoleText.line(id))")
    }
    let feed = VectorFeed()
    var adapters: [any ConformanceAdapter] = []
    var running: Task<[VectorResult], Never>?
    // Starts the run with one adapter per job, never more jobs than vectors: once as many vectors as jobs loaded, or
    // all of them did.
    func startRun(_ loaded: Int) {
      adapters = makeAdapters(
        options, first: adapter, shared: endpoint.map { endpointRun($0, token: token) } ?? association,
        count: jobs(options, work: loaded))
      // The other jobs' implementations start beside each other, not each as its first vector comes.
      for other in adapters.dropFirst() where stop == nil && control.stopReason == nil { other.prepare() }
      var runner = Runner(
        adapters: adapters, configuration: configuration, timeout: options.timeout, strict: options.strict,
        platform: options.platform)
      runner.evidence = EvidenceContext(rules: received[0].definitions.rules, reproduce: options.reproduceCommand())
      let task = Task { [stop, offset = setup.results.count] in
        guard stop == nil else { return [VectorResult]() }
        return await runner.run(
          feed, control: control, onStart: { journal.start(offset + $0) },
          onResult: {
            journal.finish(offset + $0, $1)
            shown($1.id)
          }, onAmend: { journal.finish(offset + $0, $1) })
      }
      running = task
      interruption.onStop = {
        stopLoading?()
        task.cancel()
      }
    }
    // Each file's vectors run as soon as it is loaded: without the ids before them, selected, in the shard, and
    // fingerprinted for the selection's digest beside the run. The catalog, the selection and the shard grow file by
    // file with them, so that nothing is left to go over once the last file loaded (issue 25).
    var seen: [String: String] = [:]
    var loaded = VectorCatalog()
    loaded.append(received[0], seen: &seen)
    var selectedVectors: [LoadedVector] = []
    let digest = SelectionDigest()
    while let part = await parts.next() {
      let selected = loaded.append(part, seen: &seen).filter { options.filter.matches($0.vector) }
      selectedVectors += selected
      digest.add(selected)
      let run = options.shard.map { shard in selected.filter { shard.contains($0.vector.id) } } ?? selected
      guard stop == nil, !run.isEmpty else { continue }
      journal.add(run.map { VectorResult($0, status: .skipped) })
      let loaded = planned.withLock {
        $0 += run.count
        return $0
      }
      feed.add(run)
      if running == nil, loaded >= jobs(options, work: .max) { startRun(loaded) }
    }
    feed.end()
    if running == nil { startRun(planned.withLock { $0 }) }
    let selected = VectorCatalog(vectors: selectedVectors, problems: loaded.problems, definitions: loaded.definitions)
    let catalog = options.shard.map { $0.apply(to: selected) } ?? selected
    printProblems(setup.problems + catalog.problems.map { ConsoleText.safe($0.description) }, output: output)
    let problems = Runner.results(for: catalog.problems)
    let known = setup.results + notLoaded(loaded, reason: control.stopReason) + problems
    let later = Array(known.dropFirst(setup.results.count))
    let firstLater = journal.add(later)  // one write for them all
    for (index, result) in later.enumerated() { journal.finish(firstLater + index, result) }
    planned.withLock { $0 += problems.count }
    for problem in problems { shown(problem.id) }
    if control.stopReason == nil, let problem = options.run.selectionProblem(loaded: loaded, selected: catalog) {
      _ = await running?.value
      journal.end()
      for adapter in adapters { adapter.shutdown() }
      output.err("error: \(ConsoleText.safe(problem))")
      // The reports say so too, so a CI job that reads them sees why nothing ran.
      let result = VectorResult(id: "selection", origin: .selection, file: "", message: problem)
      let record = RunRecord(
        results: setup.results + [result], implementation: adapter.name, configuration: configuration,
        registry: loaded.definitions.registry)
      let reportErrors = RunReports.write(record, options: options.run)
      for failure in reportErrors { output.err("error: \(ConsoleText.safe(failure.description))") }
      return .usage
    }
    let filesOK = catalog.problems.isEmpty && setup.problems.isEmpty
    if !options.quiet {
      output.out(
        "\(SuiteInfo.described): \(Count.of(catalog.vectors.count, "vector")) against \(adapter.name)")
    }
    let unlisted = configuration.unlistedRedirectURIs
    if !unlisted.isEmpty {
      output.err(
        "warning: allowUnlistedRedirectUris lets in \(unlisted.map { "\"\($0)\"" }.joined(separator: ", ")), "
          + "not among Google's App Flip redirect URLs; the reports say so.")
    }
    if case .refused(let diagnosis)? = endpoint?.session.current {
      output.err(
        "error: no App Flip redirect URL got a code from the endpoint, which fails AF-EP-1 (it must accept each of"
          + " them for Google's client id): \(ConsoleText.safe(diagnosis)); the vectors are judged, and every refusal"
          + " is inconclusive")
    }
    if let signInProblem, stop != nil {
      output.err("error: \(ConsoleText.safe(signInProblem))")
    } else if let preflightStop, stop != nil {
      output.err(
        "error: the preflight request got no code, so the endpoint's refusals would prove nothing: "
          + ConsoleText.safe(preflightStop))
    }
    let ran = await running?.value ?? []
    let notRun = stop.map { stop in
      catalog.vectors.map { VectorResult($0, status: .inconclusive, message: "not run: \(stop)") }
    }
    // The reports are written from the results, and replace the journal.
    let results = notRun ?? ran  // not copied when nothing came before them: a copy retains every result's fields
    var record = RunRecord(
      results: known.isEmpty ? results : known + results, implementation: adapter.name, configuration: configuration,
      startedAt: startedAt, registry: loaded.definitions.registry)
    if !options.quiet, let show = output.progress { show("") }
    if let summary = endpoint?.session.summary ?? association?.summary {
      output.err("error: \(ConsoleText.safe(summary))")
    }

    let raw = record.results  // before waivers, for --write-waivers
    var waiversOK = true
    if let waivers, let path = options.waivers {
      record.results = waivers.apply(to: record.results, loadedIDs: loaded.vectors.map(\.vector.id), file: path)
      let waiverErrors = record.results.filter { $0.origin == .waiver }
      waiversOK = waiverErrors.isEmpty
      if options.quiet { for result in waiverErrors { output.err("error: \(ConsoleText.safe(result.message))") } }
    }
    record.stopReason = control.stopReason?.description
    let console = ConsoleReport.render(
      record.results, colour: output.colour, stopReason: record.stopReason,
      printed: [.vectorFile, .configurationFile, .waiverFile], quiet: options.quiet)
    output.out(String(console.dropLast()))
    record.implementation = adapters.lazy.compactMap(\.implementation).first ?? adapter.name
    for adapter in adapters { adapter.shutdown() }
    record.selection = await selection(of: record.results, selected: selected, shard: options.shard, digest: digest)
    let reportErrors = RunReports.write(record, options: options.run)
    for failure in reportErrors { output.err("error: \(ConsoleText.safe(failure.description))") }
    if !options.quiet, reportErrors.isEmpty {
      output.out("JUnit report: \(ConsoleText.line(options.junit ?? ""))")
    }
    if let path = options.writeWaivers {
      try writeWaivers(raw, updating: waivers, to: path, date: startedAt, output: output)
    }
    leftovers.keep(received, loaded, selected, catalog, ran, raw, record, journal, feed, running as Any, seen, adapters)
    if let reason = control.stopReason, let code = ExitCode(stoppedBy: reason) {
      output.err("\(reason): the reports list what ran; the rest is marked not run.")
      return code
    }
    if !reportErrors.isEmpty { return .reportFailed }
    if !filesOK || !waiversOK || signInProblem != nil { return .usage }
    return RunSummary(record.results).isSuccess ? .success : .failure
  }
}

/// What a finished run still holds (a run of 10 000 has that many vectors, results and journal entries, each several
/// times): freed on a utility thread once the command returned, not on its coordinating thread, whose last
/// milliseconds are the run's (issue 25); a command line process exits meanwhile.
final class Leftovers: @unchecked Sendable {
  private var held: [Any] = []

  /// Keeps `values` until `free()`.
  func keep(_ values: Any...) { held += values }

  /// Frees what it keeps on another thread; call it once nothing else holds them.
  func free() {
    DispatchQueue.global(qos: .utility).async { self.held = [] }
  }
}
