import Foundation

/// One `GET` (or token `POST`) to an `https:` endpoint through the system's `curl` in a child process, read with the same bounds as
/// `http:` (`EndpointHTTPClient`): whatever the server or TLS does, the worst case is an error on that vector.
///
/// URLSession is not used: swift-corelibs-foundation ends the whole process ("Transfer completed, but there's no
/// response") when a server closes in the middle of its headers. curl gets its options on standard input (so cookies
/// never show in the process list), sends the URL as is (`--path-as-is`, `--globoff`), follows no redirect, decodes
/// nothing (`--raw`), and writes the answer's head and body to a pipe this process reads, at most 64 KiB of head and
/// 1 MiB of body, within the timeout; a cancelled or finished request kills curl.
enum EndpointCurl {
  /// Where `curl` is: the first one on `PATH`, or `nil`.
  static let path: String? = {
    let folders = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
    return folders.map { "\($0)/curl" }.first { FileManager.default.isExecutableFile(atPath: $0) }
  }()

  /// The curl options, one per line (curl's `--config` syntax), for this request; curl's own limit is a second
  /// longer than the reader's, so the reader's timeout is the one that speaks. A `body` (a form, so it never starts
  /// with `@`) is sent as a `POST`, through the same standard input, so a secret in it never shows in the process list.
  static func configuration(
    _ url: String, headers: [(String, String)], body: [UInt8]? = nil, seconds: Double, caCertificate: String?
  ) -> String {
    var lines = [
      "silent", "show-error", "include", "raw", "http1.1", "path-as-is", "globoff", "proto = \"=https\"",
      // The endpoint itself, never a proxy from the environment ($https_proxy, $ALL_PROXY): the test user's cookies
      // go to the endpoint only.
      "noproxy = \"*\"",
      "max-time = \"\(String(format: "%.3f", seconds + 1))\"",
    ]
    if let body { lines.append("data-binary = \(quoted(String(decoding: body, as: UTF8.self)))") }
    if let caCertificate { lines.append("cacert = \(quoted(caCertificate))") }
    let all = EndpointHTTPClient.merged(EndpointHTTPClient.suiteHeaders(body: body), headers)
    lines += all.map { "header = \(quoted("\($0.0): \($0.1)"))" }
    lines.append("url = \(quoted(url))")
    return lines.joined(separator: "\n") + "\n"
  }

  /// A curl config string: in double quotes, with `\` and `"` escaped.
  static func quoted(_ value: String) -> String {
    "\"" + value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
  }

  /// The blocking exchange (`EndpointTransport.send`): start curl, hand it the options, read its output until the
  /// deadline, then end it and read why it failed.
  static func exchange(
    _ bounds: EndpointTransport.Bounds, headers: [(String, String)], body: [UInt8]?, caCertificate: String?
  ) throws -> EndpointAnswer {
    let string = bounds.url
    guard let curl = path else {
      throw EndpointError.unreachable(
        url: string, reason: "https endpoints are requested through curl, which is not on PATH; install curl")
    }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: curl)
    process.arguments = ["-q", "--config", "-"]
    let input = Pipe()
    let output = Pipe()
    let errors = Pipe()
    process.standardInput = input
    process.standardOutput = output
    process.standardError = errors
    do {
      try process.run()
    } catch {
      throw EndpointError.unreachable(url: string, reason: "curl (\(curl)) cannot start: \(error.localizedDescription)")
    }
    ChildProcesses.started(process.processIdentifier)
    let options = configuration(
      string, headers: headers, body: body, seconds: bounds.seconds, caCertificate: caCertificate)
    try? input.fileHandleForWriting.write(contentsOf: Data(options.utf8))
    try? input.fileHandleForWriting.close()
    let reader = EndpointSocket.reading(
      descriptor: dup(output.fileHandleForReading.fileDescriptor), bounds: bounds)
    defer { end(process) }
    var partial: [UInt8] = []
    do {
      return try EndpointHTTPClient.read(from: reader, url: string, received: &partial)
    } catch EndpointError.closedEarly(let url, let received, let part) {
      // curl ended before a whole answer: its exit status and words say why (RFC 9110 has no answer to quote).
      end(process)
      let said = String(decoding: errors.fileHandleForReading.readDataToEndOfFile().prefix(600), as: UTF8.self)
      if process.terminationStatus == 8, let answer = refusedHead(partial, said: said) { return answer }
      throw reason(
        status: process.terminationStatus, said: said, url: url, received: received, part: part,
        timeout: bounds.timeout)
    }
  }

  /// The answer whose head curl stopped reading at a raw line break or NUL inside a header (its exit 8, "Header
  /// without colon" or "Nul byte in header"): the status and the headers curl passed on, and where the raw byte was,
  /// so the server's AF-EP-6 failure reads as over `http:`; `nil` for any other reason.
  static func refusedHead(_ received: [UInt8], said: String) -> EndpointAnswer? {
    let words = said.lowercased()
    let nul = words.contains("nul byte")
    guard nul || words.contains("without colon") else { return nil }
    guard let end = received.lastIndex(of: UInt8(ascii: "\n")),
      var head = try? EndpointHead(Array(received[..<end]), url: "")
    else { return nil }
    if head.rawControl == nil {
      let lastLine = received[..<end].split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).last ?? []
      let endsInCR = lastLine.last == UInt8(ascii: "\r")
      if nul {
        head.rawControl = .init(field: nil, character: "NUL", before: Array(endsInCR ? lastLine.dropLast() : lastLine))
      } else if let last = head.fields.last {
        head.rawControl = .init(field: last.name, character: endsInCR ? "CR LF" : "LF", before: last.value)
      } else {
        return nil
      }
    }
    return try? EndpointAnswer(head: head, body: [], url: "")
  }

  /// Kills curl if it still runs (SIGKILL: the run ignores SIGINT and SIGTERM, and a child inherits that), and reaps it.
  static func end(_ process: Process) {
    if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    process.waitUntilExit()
    ChildProcesses.ended(process.processIdentifier)
  }

  /// The error for a curl that ended without a whole answer, from its exit status (curl's EXIT CODES) and stderr.
  static func reason(status: Int32, said: String, url: String, received: Int, part: String, timeout: Double)
    -> EndpointError
  {
    // curl's first line says it; the rest (for an untrusted certificate, a paragraph and a link) would bury the fix.
    let first = said.split(whereSeparator: \.isNewline).first { !$0.allSatisfy(\.isWhitespace) } ?? ""
    let words = first.trimmingCharacters(in: .whitespaces).replacingOccurrences(of: "curl: ", with: "")
    let detail = words.isEmpty ? "curl exited \(status)" : "\(words) (curl exit \(status))"
    switch status {
    case 6, 7:
      return .unreachable(url: url, reason: detail)
    case 35, 51, 53, 54, 58, 59, 60, 77, 80, 83, 90, 91:
      return .tlsFailed(url: url, reason: detail)
    case 28:
      return .timedOut(url: url, seconds: timeout)
    case 27, 100:  // curl's own header limit (100 KB): "Out of memory" before 8.6, CURLE_TOO_LARGE since
      return .tooLarge(url: url, part: "status line and headers", limit: EndpointHTTPClient.headerLimit)
    default:
      return received == 0 && status != 52
        ? .connectionLost(url: url, reason: detail) : .closedEarly(url: url, received: received, part: part)
    }
  }
}
