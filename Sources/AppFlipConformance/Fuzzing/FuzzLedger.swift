/// What the workers of one fuzzing run share: which case comes next, how many links each judged case held, and the
/// first case of each finding, so that the report is the one a single worker gives whatever the number of workers.
///
/// A single worker judges cases 1, 2, 3, … until `--links` is reached (or `maxFindings`), shrinking the first case of
/// each distinct finding. Workers take numbers in that order and judge them side by side, so a case may finish before
/// an earlier one: a finding belongs to the lowest case that shows it (a later claim is shrunk in vain and dropped),
/// and the report covers the cases a single worker would have judged, whichever ran past them.
final class FuzzLedger: Sendable {
  private struct State {
    /// The next case number to hand out; numbers start at 1.
    var next = 1
    /// The links of case n at n - 1, 0 until it was judged.
    var links: [UInt8] = []
    /// How many cases from case 1 on were judged without a gap, and their links.
    var prefix = 0
    var prefixLinks = 0
    /// The case whose links reach the limit, once the cases before it were judged.
    var lastCase: Int?
    /// The lowest case number showing each finding's key, and its shrunk finding once it is shrunk.
    var firsts: [String: Int] = [:]
    var findings: [Int: Fuzzer.Finding] = [:]
  }

  private let state = Locked(State())
  private let limit: Int?
  private let maxFindings: Int
  private let progress: @Sendable (Int, Int) -> Void

  init(links limit: Int?, maxFindings: Int, progress: @escaping @Sendable (Int, Int) -> Void) {
    self.limit = limit
    self.maxFindings = maxFindings
    self.progress = progress
  }

  /// The next case to judge, or nil when a single worker would have stopped before it.
  func take() -> Int? {
    state.withLock { state in
      if let last = state.lastCase, state.next > last { return nil }
      // Every case below `next` is taken: the first `maxFindings` findings are among them.
      if state.firsts.count >= maxFindings { return nil }
      defer { state.next += 1 }
      state.links.append(0)
      return state.next
    }
  }

  /// Notes a judged case; the key when the case is now the lowest showing it (and should be shrunk), else nil.
  func judged(_ number: Int, links: Int, key: String?) -> String? {
    let (claimed, report) = state.withLock { state -> (Bool, (Int, Int)?) in
      state.links[number - 1] = UInt8(clamping: max(1, links))
      var report: (Int, Int)?
      while state.prefix < state.links.count && state.links[state.prefix] != 0 {
        state.prefixLinks += Int(state.links[state.prefix])
        state.prefix += 1
        if state.prefix % 1_000 == 0 { report = (state.prefixLinks, state.firsts.count) }
        if let limit, state.lastCase == nil, state.prefixLinks >= limit { state.lastCase = state.prefix }
      }
      guard let key, state.firsts[key].map({ number < $0 }) ?? true else { return (false, report) }
      if let superseded = state.firsts[key] { state.findings[superseded] = nil }
      state.firsts[key] = number
      return (true, report)
    }
    if let report { progress(report.0, report.1) }
    return claimed ? key : nil
  }

  /// Keeps a shrunk finding, unless a lower case showed its key meanwhile.
  func found(_ finding: Fuzzer.Finding, case number: Int) {
    state.withLock { state in
      if state.firsts[finding.key] == number { state.findings[number] = finding }
    }
  }

  /// The cases a single worker would have judged (all judged ones when the run stopped early), their links, and their
  /// findings in case order, each with the links judged up to its case.
  func report() -> (cases: Int, links: Int, findings: [Fuzzer.Finding]) {
    state.withLock { state in
      let claims = state.firsts.values.sorted()
      let lastFinding = claims.count >= maxFindings ? claims[maxFindings - 1] : Int.max
      let last = min(state.lastCase ?? .max, lastFinding, state.links.count)
      var cases = 0
      var links = 0
      var findings: [Fuzzer.Finding] = []
      for index in 0..<last where state.links[index] != 0 {
        cases += 1
        links += Int(state.links[index])
        if var finding = state.findings[index + 1] {
          finding.foundAfter = links
          findings.append(finding)
        }
      }
      return (cases, links, findings)
    }
  }
}
