import Foundation

/// Runs a partner's login command before an endpoint run and hands its session to the run: the command gets
/// `APPFLIP_COOKIE_JAR` (a file to write as a curl/Netscape cookie jar) and `APPFLIP_ENDPOINT`, and must exit 0.
///
/// The command runs in a process group of its own, with every signal at its default action, and is bounded like the
/// rest of the run: past its timeout, or when the task is cancelled (SIGINT, SIGTERM, SIGHUP), the whole group gets
/// SIGTERM, then SIGKILL half a second later. The jar and the command's output live in a folder only this user can
/// read (0700, files 0600), removed before `run` returns, whatever happened.
enum EndpointLogin {
  /// How long a login command may take unless `--login-timeout` says otherwise.
  static let defaultTimeout = 120.0
  /// How long the group has to end after SIGTERM before it gets SIGKILL.
  static let grace = 0.5

  /// Runs `command` with `sh -c` and returns the cookie jar it wrote; throws a sentence quoting its output otherwise,
  /// or `CancellationError` when the task was cancelled (the command is ended first).
  static func run(_ command: String, endpoint: URL, timeout: Double = defaultTimeout) async throws
    -> EndpointCookieJar
  {
    let folder = try privateFolder(command: command)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let jar = folder + "/cookies.txt"
    let log = folder + "/output.txt"
    let child: pid_t
    do {
      let input = open("/dev/null", O_RDONLY | O_CLOEXEC)
      let output = try privateFile(log)
      close(try privateFile(jar))
      defer {
        close(input)
        close(output)
      }
      let environment = [("APPFLIP_COOKIE_JAR", jar), ("APPFLIP_ENDPOINT", endpoint.absoluteString)]
        .map { "\($0.0)=\(ShellWord.quoted($0.1))" }.joined(separator: " ")
      child = try SubprocessSpawn.shell(
        "/usr/bin/env \(environment) /bin/sh -c \(ShellWord.quoted(command))", stdin: input, stdout: output,
        stderr: output)
    } catch let error as EndpointLoginError {
      throw error
    } catch {
      throw EndpointLoginError.failed(command: command, why: "it cannot start (\(error.localizedDescription))")
    }
    let ended = await wait(for: child, timeout: timeout)
    let said = tail(of: log)
    let quoted = said.isEmpty ? "" : " (it said: \(Quoted.string(said)))"
    switch ended {
    case .cancelled:
      throw CancellationError()
    case .timedOut:
      throw EndpointLoginError.failed(
        command: command,
        why: "it did not finish within \(timeout) seconds (--login-timeout), so it was ended\(quoted)")
    case .ended(.exited(0)):
      break
    case .ended(.exited(let status)):
      throw EndpointLoginError.failed(command: command, why: "it exited \(status)\(quoted)")
    case .ended(.signaled(let signal)):
      throw EndpointLoginError.failed(command: command, why: "signal \(signal) ended it\(quoted)")
    case .ended(.unknown):
      throw EndpointLoginError.failed(command: command, why: "its exit status is lost\(quoted)")
    }
    let cookies: EndpointCookieJar
    do {
      cookies = try EndpointCookieJar.load(jar)
    } catch {
      throw EndpointLoginError.failed(
        command: command, why: "it exited 0 but left no usable cookie jar in $APPFLIP_COOKIE_JAR: \(error)\(quoted)")
    }
    guard !cookies.cookies.isEmpty else {
      throw EndpointLoginError.failed(
        command: command, why: "it exited 0 but wrote no cookie to $APPFLIP_COOKIE_JAR\(quoted)")
    }
    return cookies
  }

  /// How the wait for a login command ended.
  enum Ended: Equatable {
    /// The command ended by itself, this way.
    case ended(SubprocessTermination)
    /// Its timeout passed; its group was ended.
    case timedOut
    /// The task was cancelled; its group was ended.
    case cancelled
  }

  /// Waits for the command, in slices of 20 ms, until it ends, its timeout passes or the task is cancelled; in the
  /// last two cases ends its process group (SIGTERM, then SIGKILL after `grace`). Whatever the command left running in
  /// its group is killed in every case.
  static func wait(for child: pid_t, timeout: Double) async -> Ended {
    let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(max(0, timeout) * 1e9)
    while true {
      if let termination = SubprocessSpawn.reap(child, blocking: false) {
        SubprocessSpawn.killGroup(child)
        return .ended(termination)
      }
      let ended: Ended? =
        Task.isCancelled ? .cancelled : DispatchTime.now().uptimeNanoseconds >= deadline ? .timedOut : nil
      if let ended {
        endGroup(child)
        return ended
      }
      try? await Task.sleep(nanoseconds: 20_000_000)
    }
  }

  /// Ends the command's process group: SIGTERM, then SIGKILL once the command has ended or `grace` has passed, and
  /// collects the command.
  static func endGroup(_ child: pid_t) {
    _ = kill(-child, SIGTERM)
    let graceEnd = DispatchTime.now().uptimeNanoseconds + UInt64(grace * 1e9)
    while SubprocessSpawn.reap(child, blocking: false) == nil {
      guard DispatchTime.now().uptimeNanoseconds < graceEnd else {
        SubprocessSpawn.killGroup(child)
        _ = SubprocessSpawn.reap(child, blocking: true)
        break
      }
      Thread.sleep(forTimeInterval: 0.01)
    }
    SubprocessSpawn.killGroup(child)
  }

  /// A new folder only this user can enter (`mkdtemp`, mode 0700) in the temporary folder.
  static func privateFolder(command: String) throws(EndpointLoginError) -> String {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("appflip-login-XXXXXX")
    var template = Array(folder.path.utf8CString)
    guard let made = mkdtemp(&template) else {
      throw .failed(
        command: command, why: "no private folder can be made for its cookie jar (\(String(cString: strerror(errno))))")
    }
    return String(cString: made)
  }

  /// Creates a file only this user can read (mode 0600) and returns its descriptor.
  static func privateFile(_ path: String) throws -> Int32 {
    let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
    guard descriptor >= 0 else { throw SubprocessSpawnError(call: "open", code: errno) }
    return descriptor
  }

  /// The last 400 characters of the command's output, read from at most its last 4 KiB.
  static func tail(of path: String) -> String {
    guard let handle = FileHandle(forReadingAtPath: path) else { return "" }
    defer { try? handle.close() }
    let size = (try? handle.seekToEnd()) ?? 0
    try? handle.seek(toOffset: size > 4096 ? size - 4096 : 0)
    let data = (try? handle.readToEnd()) ?? Data()
    return String(String(decoding: data, as: UTF8.self).suffix(400))
  }
}

/// A login command that did not hand over a session.
enum EndpointLoginError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The command failed, with why.
  case failed(command: String, why: String)

  /// One sentence quoting the command and what to do.
  var description: String {
    switch self {
    case .failed(let command, let why):
      "the login command \(Quoted.string(command)) gave no session: \(why); make it write a curl/Netscape cookie jar"
        + " to \"$APPFLIP_COOKIE_JAR\" (e.g. curl -c \"$APPFLIP_COOKIE_JAR\" …) and exit 0"
    }
  }
}
