import Foundation

/// How a child process ended.
enum SubprocessTermination: Equatable {
  /// It exited with this status.
  case exited(Int32)
  /// This signal killed it.
  case signaled(Int32)
  /// Its status is lost: it was collected elsewhere.
  case unknown
}

/// Why a child could not be started: which call failed, and its error number.
struct SubprocessSpawnError: LocalizedError {
  var call: String
  var code: Int32

  var errorDescription: String? { "\(call) failed: \(String(cString: strerror(code)))" }
}

/// The system calls behind `SubprocessChild`: start `/bin/sh -c "exec COMMAND"` in a clean state, signal its process
/// group, collect its exit.
///
/// `posix_spawn` rather than Foundation's `Process`, for three things `Process` does not do: the child starts with no
/// signal blocked (the harness starts it from a Dispatch thread, which blocks almost every signal) and every signal at
/// its default action (the harness ignores SIGPIPE, and SIGINT and SIGTERM during a run; ignored signals survive
/// `exec`), and it leads its own process group, so that killing the group also stops what a wrapper (a proxy, npm,
/// gradle) started.
enum SubprocessSpawn {
  /// A pipe whose ends are both close-on-exec and above 2, so they cannot take the place of a standard stream.
  static func makePipe() throws -> (read: Int32, write: Int32) {
    var ends: [Int32] = [-1, -1]
    guard pipe(&ends) == 0 else { throw SubprocessSpawnError(call: "pipe", code: errno) }
    for index in ends.indices {
      let moved = fcntl(ends[index], F_DUPFD_CLOEXEC, 3)
      let code = errno
      close(ends[index])
      ends[index] = moved
      guard moved >= 0 else {
        for end in ends where end >= 0 { close(end) }
        throw SubprocessSpawnError(call: "fcntl", code: code)
      }
    }
    return (ends[0], ends[1])
  }

  #if os(iOS) || os(tvOS) || os(watchOS) || os(visionOS)
    /// Apps on these platforms cannot start processes: the library (and a partner's iOS test target) still builds, and
    /// `--exec` fails with a clear error.
    static func shell(_ command: String, stdin: Int32, stdout: Int32, stderr: Int32) throws -> pid_t {
      throw CocoaError(
        .featureUnsupported,
        userInfo: [NSLocalizedDescriptionKey: "this platform cannot start processes; run --exec on macOS or Linux"])
    }

    /// Nothing to collect where nothing starts.
    static func reap(_ child: pid_t, blocking: Bool) -> SubprocessTermination? { .unknown }

    /// Nothing to kill where nothing starts.
    static func killGroup(_ child: pid_t) {}
  #else
    /// Starts `/bin/sh -c "exec COMMAND"` with `stdin`, `stdout` and `stderr` as its standard streams (the caller closes
    /// its copies), no signal blocked, every signal at its default action, and no other descriptor of the harness;
    /// the child leads a new process group whose id is its pid.
    static func shell(_ command: String, stdin: Int32, stdout: Int32, stderr: Int32) throws -> pid_t {
      #if canImport(Darwin)
        var actions: posix_spawn_file_actions_t? = nil
        var attributes: posix_spawnattr_t? = nil
      #else
        var actions = posix_spawn_file_actions_t()
        var attributes = posix_spawnattr_t()
      #endif
      try check("posix_spawn_file_actions_init", posix_spawn_file_actions_init(&actions))
      defer { posix_spawn_file_actions_destroy(&actions) }
      try check("posix_spawnattr_init", posix_spawnattr_init(&attributes))
      defer { posix_spawnattr_destroy(&attributes) }

      // dup2 clears close-on-exec on 0, 1 and 2; the pipe ends themselves (all above 2) are close-on-exec.
      for (descriptor, target) in [(stdin, STDIN_FILENO), (stdout, STDOUT_FILENO), (stderr, STDERR_FILENO)] {
        try check("posix_spawn_file_actions_adddup2", posix_spawn_file_actions_adddup2(&actions, descriptor, target))
      }
      var flags = POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP
      #if canImport(Darwin)
        // Close every other descriptor, including those other code left without close-on-exec.
        flags |= POSIX_SPAWN_CLOEXEC_DEFAULT
      #elseif canImport(Glibc)
        if let addCloseFrom = Self.addCloseFrom {
          try check("posix_spawn_file_actions_addclosefrom_np", addCloseFrom(&actions, 3))
        }
      #endif
      var unblocked = sigset_t()
      var defaults = sigset_t()
      sigemptyset(&unblocked)
      sigemptyset(&defaults)
      for signal in 1..<Int32(NSIG) where signal != SIGKILL && signal != SIGSTOP {
        sigaddset(&defaults, signal)  // fails, harmlessly, for the C library's own signals
      }
      try check("posix_spawnattr_setsigmask", posix_spawnattr_setsigmask(&attributes, &unblocked))
      try check("posix_spawnattr_setsigdefault", posix_spawnattr_setsigdefault(&attributes, &defaults))
      try check("posix_spawnattr_setpgroup", posix_spawnattr_setpgroup(&attributes, 0))
      try check("posix_spawnattr_setflags", posix_spawnattr_setflags(&attributes, Int16(flags)))

      let arguments = ["/bin/sh", "-c", "exec " + command].map { $0.withCString(strdup) }
      defer { for argument in arguments { free(argument) } }
      #if canImport(Darwin)
        // Swift has no `environ` on Darwin: the same variables, through Foundation.
        let variables = ProcessInfo.processInfo.environment.map { ($0.key + "=" + $0.value).withCString(strdup) }
        defer { for variable in variables { free(variable) } }
        let environment = variables + [nil]
      #else
        let environment = environ
      #endif
      var child = pid_t()
      try check("posix_spawn", posix_spawn(&child, "/bin/sh", &actions, &attributes, arguments + [nil], environment))
      return child
    }

    /// Collects the child: how it ended, or nil while it runs (`blocking` waits for it to end).
    static func reap(_ child: pid_t, blocking: Bool) -> SubprocessTermination? {
      var status: Int32 = 0
      while true {
        let result = waitpid(child, &status, blocking ? 0 : WNOHANG)
        if result == child {
          // The layout of a wait status on Linux and Darwin: the signal in the low 7 bits, else the status above.
          let signal = status & 0x7F
          return signal == 0 ? .exited((status >> 8) & 0xFF) : .signaled(signal)
        }
        if result == 0 { return nil }
        if errno != EINTR { return .unknown }
      }
    }

    /// SIGKILL to every process in the child's group: the child, and whatever it started that is still there.
    static func killGroup(_ child: pid_t) {
      guard child > 0 else { return }  // -0 would be the harness's own group
      _ = kill(-child, SIGKILL)
    }

    private static func check(_ call: String, _ result: Int32) throws {
      guard result == 0 else { throw SubprocessSpawnError(call: call, code: result) }
    }
  #endif

  #if canImport(Glibc) && !(os(iOS) || os(tvOS) || os(watchOS) || os(visionOS))
    private typealias AddCloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>?, Int32) -> Int32

    /// glibc's `posix_spawn_file_actions_addclosefrom_np` (2.34 and later), looked up when the harness runs so that it
    /// still builds and runs with an older C library, where the child keeps descriptors that are not close-on-exec.
    private static let addCloseFrom: AddCloseFrom? = {
      guard let symbol = dlsym(dlopen(nil, RTLD_NOW), "posix_spawn_file_actions_addclosefrom_np") else { return nil }
      return unsafeBitCast(symbol, to: AddCloseFrom.self)
    }()
  #endif
}
