import Foundation
import Testing

@testable import AppFlipConformance

#if canImport(Glibc)
  import Glibc
#endif

/// The threads that load vector files beside a run give way to it beyond the cores it leaves free.
@Suite("Loading threads")
struct LoadingThreadsTests {
  /// How each thread of a load runs: its nice value on Linux, whether it runs at the utility quality of service on
  /// Apple platforms.
  static func priorities(threads: Int, besideJobs jobs: Int?) -> [Int] {
    let seen = Locked<[Int]>([])
    LoadingThreads.run(threads, besideJobs: jobs) {
      #if canImport(Glibc)
        let nice = Int(getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0))
      #else
        let nice = Thread.current.qualityOfService == .utility ? 10 : 0
      #endif
      seen.withLock { $0.append(nice) }
    }
    return seen.withLock { $0 }.sorted()
  }

  @Test("Beside a run on every core, one thread keeps its priority and the others give way; without a run, none does")
  func priorities() {
    let cores = ProcessInfo.processInfo.activeProcessorCount
    #if canImport(Glibc)
      let base = Int(getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0))
    #else
      let base = 0
    #endif
    let lowered = min(19, base + 10)
    #expect(Self.priorities(threads: 3, besideJobs: cores) == [base, lowered, lowered])
    #expect(Self.priorities(threads: 3, besideJobs: nil) == [base, base, base])
    // A run of one job on a machine of `cores` leaves `cores - 1` free: as many threads keep their priority.
    let free = max(1, cores - 1)
    #expect(Self.priorities(threads: free + 1, besideJobs: 1) == Array(repeating: base, count: free) + [lowered])
  }
}
