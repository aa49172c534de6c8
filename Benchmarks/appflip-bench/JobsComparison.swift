import AppFlipConformance
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `--jobs 2` against `--jobs 1` over the Python example, measured back to back, round by round, so that other load
/// on a shared machine slows both alike; the ratio of each pair, and their median.
enum JobsComparison {
  /// The figure's rows.
  static func print(_ selected: VectorCatalog, command: String, label: String, _ options: BenchOptions) async {
    let adapters = (0..<2).map { _ in SubprocessAdapter(command: command, timeout: 10) }
    defer { for adapter in adapters { adapter.shutdown() } }
    let one = Runner(adapter: adapters[0])
    let two = Runner(adapters: adapters)
    let serial = await one.run(selected)  // also starts both processes: their start-up is not measured
    let twice = await two.run(selected)
    // Each run ends with a wait of 50 ms (`CatalogRun.settleGrace`) for a late second answer, whatever its length:
    // one run of the corpus copied `copies` times, lasting about a round, measures the vectors, not that wait.
    let single = await Stopwatch.seconds { _ = await one.run(selected) }
    let copies = max(1, Int((options.roundSeconds / max(single - 0.05, 0.01)).rounded()))
    let catalog = Self.copied(selected, copies)
    let passes = 1
    var jobsOne: [Double] = []
    var jobsTwo: [Double] = []
    var harnessCPU = (one: 0.0, two: 0.0)
    var adapterCPU: (one: Double, two: Double)? = (0, 0)
    var capacity: [Double] = []
    var busy: [Double] = []
    for _ in 0..<max(3, options.rounds) {
      capacity.append(Self.twoThreadSpeedUp())
      var cpu = Stopwatch.processCPUSeconds()
      var children = ChildrenCPU.seconds()
      jobsOne.append(await Stopwatch.seconds { for _ in 0..<passes { _ = await one.run(catalog) } } / Double(passes))
      harnessCPU.one += Stopwatch.processCPUSeconds() - cpu
      var after = ChildrenCPU.seconds()
      adapterCPU = adapterCPU.flatMap { sum in
        children.flatMap { start in after.map { (sum.one + $0 - start, sum.two) } }
      }
      cpu = Stopwatch.processCPUSeconds()
      children = after
      let idle = MachineLoad.sample()
      jobsTwo.append(await Stopwatch.seconds { for _ in 0..<passes { _ = await two.run(catalog) } } / Double(passes))
      if let idle, let share = MachineLoad.sample()?.busyShare(since: idle) { busy.append(share) }
      harnessCPU.two += Stopwatch.processCPUSeconds() - cpu
      after = ChildrenCPU.seconds()
      adapterCPU = adapterCPU.flatMap { sum in
        children.flatMap { start in after.map { (sum.one, sum.two + $0 - start) } }
      }
    }
    let count = catalog.vectors.count
    Swift.print(
      Format.row(
        "",
        "each run: the \(selected.vectors.count) vectors \(copies) times over (\(Format.grouped(count)) vectors), so "
          + "its final 50 ms wait for a late second answer hardly counts; one run of them alone: "
          + Format.seconds(single)))
    Swift.print(Format.line(label + " --jobs 1", Measurement(secondsPerPass: jobsOne, passes: passes), vectors: count))
    Swift.print(Format.line(label + " --jobs 2", Measurement(secondsPerPass: jobsTwo, passes: passes), vectors: count))
    let vectors = Double(max(3, options.rounds) * passes * count)
    let cores =
      busy.isEmpty ? "" : String(format: "; the cores were %.0f %% busy during --jobs 2", Format.median(busy) * 100)
    Swift.print(
      Format.row(
        "",
        "the harness's own CPU: \(Format.microseconds(harnessCPU.one / vectors))/vector in --jobs 1, "
          + "\(Format.microseconds(harnessCPU.two / vectors)) in --jobs 2\(cores)"))
    if let adapterCPU {
      Swift.print(
        Format.row(
          "",
          "the adapter processes' CPU: \(Format.microseconds(adapterCPU.one / vectors))/vector in --jobs 1, "
            + "\(Format.microseconds(adapterCPU.two / vectors)) in --jobs 2"))
    }
    let ratios = zip(jobsOne, jobsTwo).map { $0 / $1 }
    let speedUp = String(
      format: "%.2f× as fast (goal ≥ 1.7× on 2 cores; this machine has %d); per round: %@", Format.median(ratios),
      ProcessInfo.processInfo.activeProcessorCount, ratios.map { String(format: "%.2f", $0) }.joined(separator: " "))
    let verdicts = { (results: [VectorResult]) in results.map { "\($0.id) \($0.status) \($0.findings)" } }
    let same = verdicts(serial) == verdicts(twice) ? "; verdicts identical" : "; warning: the verdicts differ"
    Swift.print(Format.row("--jobs 2 / --jobs 1", speedUp + same))
    Swift.print(
      Format.row(
        "",
        String(
          format: "the machine's own speed-up of two CPU-bound threads meanwhile: %.2f× (per round: %@), the ceiling",
          Format.median(capacity), capacity.map { String(format: "%.2f", $0) }.joined(separator: " "))))
  }

  /// The catalog's vectors `copies` times over, each copy's ids marked `#N` so that every result stays its own.
  static func copied(_ catalog: VectorCatalog, _ copies: Int) -> VectorCatalog {
    guard copies > 1 else { return catalog }
    var vectors: [LoadedVector] = []
    vectors.reserveCapacity(catalog.vectors.count * copies)
    for copy in 0..<copies {
      for var loaded in catalog.vectors {
        loaded.vector.id += "#\(copy)"
        vectors.append(loaded)
      }
    }
    return VectorCatalog(vectors: vectors)
  }

  /// How much faster two threads do two equal pieces of CPU-bound work than one thread does both, right now: 2 on an
  /// idle 2-core machine, less when other load shares the cores.
  ///
  /// The threads are plain threads of their own: `DispatchQueue.concurrentPerform`, called from Swift's cooperative
  /// pool, often ran both pieces on the calling thread (a "speed-up" of 1.0 on an idle machine), and pieces of 30 ms
  /// were within the scheduler's noise.
  static func twoThreadSpeedUp() -> Double {
    let one = Stopwatch.seconds { _ = SpinThreads.run([{ spin(1) &+ spin(2) }]) }
    let two = Stopwatch.seconds { _ = SpinThreads.run([{ spin(1) }, { spin(2) }]) }
    return one / two
  }

  /// A fixed amount of CPU-bound work (about 0.1 s), whose result is kept so it is not optimized away.
  @Sendable static func spin(_ seed: UInt64) -> UInt64 {
    var state = seed
    for step in 0..<60_000_000 { state = state &* 6_364_136_223_846_793_005 &+ UInt64(step) }
    return state
  }
}
