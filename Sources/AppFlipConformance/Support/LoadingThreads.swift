import Foundation

/// Threads of their own for loading vector files, one per core. Beside a run of `jobs` workers, those beyond the cores
/// the run leaves free (at least one keeps its priority, so the run's feed never starves) give way to it on a busy
/// core: on Linux such a thread lowers its own priority to nice 10 (a thread's own setting there), on Apple platforms
/// it runs at the utility quality of service. The run's workers and the implementation starting beside them (a Python
/// handler's 30 ms) then come first, and those threads take what the run leaves idle.
enum LoadingThreads {
  /// Runs `body` on `count` threads (at least one), and returns once each has returned; `besideJobs`, the workers of
  /// the run the loading feeds, if it feeds one.
  static func run(_ count: Int, besideJobs jobs: Int?, _ body: @escaping @Sendable () -> Void) {
    let normal = jobs.map { max(1, ProcessInfo.processInfo.activeProcessorCount - $0) } ?? count
    let done = DispatchGroup()
    for index in 0..<max(1, count) {
      done.enter()
      let givesWay = index >= normal
      let thread = Thread {
        // PRIO_PROCESS with 0 is the calling thread on Linux, whose nice value is a thread's own.
        #if canImport(Glibc)
          if givesWay { _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, 10) }
        #elseif canImport(Musl)
          if givesWay { _ = setpriority(PRIO_PROCESS, 0, 10) }
        #endif
        body()
        done.leave()
      }
      #if canImport(Darwin)
        if givesWay { thread.qualityOfService = .utility }
      #endif
      thread.stackSize = 8 << 20  // as the main thread's: JSONDecoder recurses through a file's nesting
      thread.start()
    }
    done.wait()
  }
}
