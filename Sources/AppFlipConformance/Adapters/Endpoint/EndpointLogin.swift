import Foundation

/// Runs a partner's login command before an endpoint run and hands its session to the run: the command gets
/// `APPFLIP_COOKIE_JAR` (a file to write as a curl/Netscape cookie jar) and `APPFLIP_ENDPOINT`, and must exit 0.
enum EndpointLogin {
  /// How long a login command may take.
  static let timeout = 120.0

  /// Runs `command` with `sh -c` and returns the cookie jar it wrote; throws a sentence quoting its output otherwise.
  static func run(_ command: String, endpoint: URL) throws(EndpointLoginError) -> EndpointCookieJar {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("appflip-login-\(UUID().uuidString)")
    try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let jar = folder.appendingPathComponent("cookies.txt")
    let log = folder.appendingPathComponent("output.txt")
    _ = FileManager.default.createFile(atPath: log.path, contents: nil)
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/sh")
    process.arguments = ["-c", command]
    var environment = ProcessInfo.processInfo.environment
    environment["APPFLIP_COOKIE_JAR"] = jar.path
    environment["APPFLIP_ENDPOINT"] = endpoint.absoluteString
    process.environment = environment
    process.standardInput = FileHandle.nullDevice
    guard let output = try? FileHandle(forWritingTo: log) else { throw .failed(command: command, why: "cannot log") }
    process.standardOutput = output
    process.standardError = output
    do {
      try process.run()
    } catch {
      throw .failed(command: command, why: "it cannot start (\(error.localizedDescription))")
    }
    let deadline = Date().addingTimeInterval(timeout)
    while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
    if process.isRunning {
      process.terminate()
      process.waitUntilExit()
      throw .failed(command: command, why: "it did not finish within \(Int(timeout)) seconds")
    }
    try? output.close()
    let said = (try? String(contentsOf: log, encoding: .utf8)).map { String($0.suffix(400)) } ?? ""
    let tail = said.isEmpty ? "" : " (it said: \(Quoted.string(said)))"
    guard process.terminationStatus == 0 else {
      throw .failed(command: command, why: "it exited \(process.terminationStatus)\(tail)")
    }
    do {
      return try EndpointCookieJar.load(jar.path)
    } catch {
      throw .failed(
        command: command, why: "it exited 0 but left no usable cookie jar in $APPFLIP_COOKIE_JAR: \(error)\(tail)")
    }
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
