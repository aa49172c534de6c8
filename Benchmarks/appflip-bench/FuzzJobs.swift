import AppFlipConformance
import Foundation

/// `fuzz --jobs 2` against `--jobs 1`: links per second in-process against the reference handler, and over `--exec`
/// with the Python example, the two run back to back round by round with the same seed, so that other load on a
/// shared machine slows both alike; their ratio, and whether both judged the same cases and found the same.
enum FuzzJobs {
  /// The figure's rows.
  static func print(_ options: BenchOptions) async {
    await compare("fuzz in-process", options) {
      InProcessAdapter(name: "AppFlipReferenceHandler") { ReferenceHandlerAdapter(configuration: $0) }
    }
    guard let python = Executables.python(), let script = Executables.pythonExample() else {
      Swift.print(Format.row("fuzz --exec appflip_handler.py", "not available (no python3 or Examples/python)"))
      return
    }
    let command = "\(Executables.shellQuoted(python)) \(Executables.shellQuoted(script))"
    await compare("fuzz --exec appflip_handler.py", options) { SubprocessAdapter(command: command, timeout: 10) }
  }

  /// One implementation's rows: `--jobs 1` and `--jobs 2` in links/s, their ratio per round, and the machine's ceiling.
  static func compare(_ label: String, _ options: BenchOptions, make: () -> any ConformanceAdapter) async {
    let adapters = [make(), make()]
    defer { for adapter in adapters { adapter.shutdown() } }
    func fuzz(_ jobs: Int, seed: UInt64, links: Int? = nil, seconds: Double? = nil) async -> Fuzzer.Report {
      await Fuzzer(adapters: Array(adapters.prefix(jobs)), configuration: .default, seed: seed)
        .run(links: links, seconds: seconds)
    }
    // A round's links: about a round's time at --jobs 1 (this also starts both processes over --exec).
    let probe = await fuzz(2, seed: 0, seconds: options.roundSeconds / 2)
    let links = max(1_000, Int(Double(probe.links) / max(probe.seconds, 1e-9) * options.roundSeconds / 2))
    var one: [Double] = []
    var two: [Double] = []
    var ceiling: [Double] = []
    var busy: [Double] = []
    var cpu = (one: 0.0, two: 0.0)
    var same = true
    var findings = 0
    for round in 1...max(3, options.rounds) {
      ceiling.append(JobsComparison.twoThreadSpeedUp())
      var start = Stopwatch.processCPUSeconds()
      let serial = await fuzz(1, seed: UInt64(round), links: links)
      cpu.one += Stopwatch.processCPUSeconds() - start
      let idle = MachineLoad.sample()
      start = Stopwatch.processCPUSeconds()
      let parallel = await fuzz(2, seed: UInt64(round), links: links)
      cpu.two += Stopwatch.processCPUSeconds() - start
      if let idle, let share = MachineLoad.sample()?.busyShare(since: idle) { busy.append(share) }
      one.append(Double(serial.links) / serial.seconds)
      two.append(Double(parallel.links) / parallel.seconds)
      same =
        same && serial.cases == parallel.cases && serial.links == parallel.links
        && serial.findings.map(\.vector.id) == parallel.findings.map(\.vector.id)
      findings += serial.findings.count
    }
    let rate = { (rates: [Double]) in "\(Format.grouped(Int(Format.median(rates).rounded()))) links/s" }
    Swift.print(Format.row(label + " --jobs 1", rate(one) + " (\(Format.grouped(links)) links a round)"))
    let cores = busy.isEmpty ? "" : String(format: "; the cores %.0f %% busy", Format.median(busy) * 100)
    Swift.print(Format.row(label + " --jobs 2", rate(two) + cores))
    let total = Double(links * one.count)
    Swift.print(
      Format.row(
        "",
        "this process's CPU: \(Format.microseconds(cpu.one / total))/link in --jobs 1, "
          + "\(Format.microseconds(cpu.two / total)) in --jobs 2"))
    let ratios = zip(two, one).map { $0 / $1 }
    Swift.print(
      Format.row(
        "fuzz --jobs 2 / --jobs 1",
        String(format: "%.2f× (goal ≥ 1.6× in-process); per round: ", Format.median(ratios))
          + ratios.map { String(format: "%.2f", $0) }.joined(separator: " ")
          + String(format: "; fastest rounds: %.2f×", (two.max() ?? 0) / (one.max() ?? 1))
          + (same ? "; the same cases and \(findings) findings" : "; warning: the cases or findings differ")))
    Swift.print(
      Format.row(
        "",
        String(
          format: "the machine's own speed-up of two CPU-bound threads meanwhile: %.2f× (per round: %@)",
          Format.median(ceiling), ceiling.map { String(format: "%.2f", $0) }.joined(separator: " "))))
  }
}
