import Foundation

/// Rounds of timed passes: each round repeats a pass until it lasts long enough, and the median round counts.
struct Measurement: Sendable, Hashable {
  /// Seconds per pass in each measured round, in the order they ran.
  var secondsPerPass: [Double]
  /// Passes in each round.
  var passes: Int
  /// CPU seconds of the whole process per pass in each round (every thread): steadier than wall time on a busy machine.
  var cpuSecondsPerPass: [Double] = []

  /// The median CPU seconds per pass.
  var cpuMedian: Double {
    let sorted = cpuSecondsPerPass.sorted()
    guard !sorted.isEmpty else { return 0 }
    let middle = sorted.count / 2
    return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
  }

  /// The median seconds per pass.
  var median: Double {
    let sorted = secondsPerPass.sorted()
    let middle = sorted.count / 2
    return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
  }

  /// The fastest and slowest rounds, seconds per pass.
  var range: ClosedRange<Double> { secondsPerPass.min()!...secondsPerPass.max()! }

  /// One untimed warm-up pass, then `rounds` rounds of as many passes as last `roundSeconds`, judged by the warm-up.
  static func run(rounds: Int, roundSeconds: Double, pass: () async throws -> Void) async rethrows -> Measurement {
    let warmUp = try await Stopwatch.seconds { try await pass() }
    // A second, warm pass calibrates better than the first, which pays for caches and lazy initialization.
    let calibration = try await Stopwatch.seconds { try await pass() }
    let passes = max(1, Int((roundSeconds / max(min(warmUp, calibration), 1e-9)).rounded(.up)))
    var perPass: [Double] = []
    var cpuPerPass: [Double] = []
    for _ in 0..<rounds {
      let cpuStart = Stopwatch.processCPUSeconds()
      let seconds = try await Stopwatch.seconds {
        for _ in 0..<passes { try await pass() }
      }
      perPass.append(seconds / Double(passes))
      cpuPerPass.append((Stopwatch.processCPUSeconds() - cpuStart) / Double(passes))
    }
    return Measurement(secondsPerPass: perPass, passes: passes, cpuSecondsPerPass: cpuPerPass)
  }
}

/// Wall-clock timing on a monotonic clock.
enum Stopwatch {
  /// The seconds `body` takes.
  static func seconds(_ body: () async throws -> Void) async rethrows -> Double {
    let clock = ContinuousClock()
    let start = clock.now
    try await body()
    return (clock.now - start).seconds
  }
}

extension Stopwatch {
  /// The seconds `body` takes.
  static func seconds(_ body: () throws -> Void) rethrows -> Double {
    let clock = ContinuousClock()
    let start = clock.now
    try body()
    return (clock.now - start).seconds
  }
}

extension Stopwatch {
  /// CPU seconds the process has used so far, on every thread.
  static func processCPUSeconds() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
  }
}

extension Duration {
  /// The duration in seconds.
  var seconds: Double {
    let (whole, attoseconds) = components
    return Double(whole) + Double(attoseconds) / 1e18
  }
}
