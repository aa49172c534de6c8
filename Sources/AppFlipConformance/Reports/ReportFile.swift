import Foundation

/// Writes a report to a path the way a person means it: a regular file (or a symlink to one) is replaced atomically,
/// anything else (a FIFO, a terminal, `/dev/stdout`, a character device) is written through, never replaced.
///
/// The one file writer of the library: JUnit, Markdown, JSON results and waiver files all go through it.
package enum ReportFile {
  /// How the bytes meet what is already at the path.
  package enum Mode: Sendable, Hashable {
    /// The file holds only these bytes afterwards (atomically, for a regular file).
    case replace
    /// The bytes are added at the end (GitHub's `$GITHUB_STEP_SUMMARY`, which other steps also write to).
    case append
  }

  /// Why a report cannot be written: one sentence naming the path and what to do.
  package struct WriteError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The path as given.
    package var path: String
    /// What went wrong, in words (from `strerror`, never a Foundation error code).
    package var reason: String

    /// One sentence that quotes the path and says what to do.
    package var description: String {
      "cannot write to \(Quoted.string(path)): \(reason); choose another path or fix the folder's permissions."
    }
  }

  /// A value as the suite writes its JSON files (results, waivers, the id manifest, fuzz findings): pretty-printed,
  /// keys sorted, slashes as they are, ending in a newline; the same value gives the same bytes.
  package static func json(_ value: some Encodable) throws -> Data {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    return try encoder.encode(value) + Data("\n".utf8)
  }

  /// Writes `data` to `path`: atomically for a regular file or a new one (following symlinks to their target,
  /// creating missing folders), written through for a FIFO, device or terminal.
  package static func write(_ data: Data, to path: String, mode: Mode = .replace) throws(WriteError) {
    guard !path.isEmpty else { throw WriteError(path: path, reason: "the path is empty") }
    var info = stat()
    if stat(path, &info) == 0 {
      let type = info.st_mode & S_IFMT
      if type == S_IFDIR { throw WriteError(path: path, reason: "it is a folder") }
      if type != S_IFREG || mode == .append || isSpecialPath(path) {
        try writeThrough(data, to: path)
        return
      }
    } else if errno == ELOOP {
      throw WriteError(path: path, reason: "it is a symlink loop")
    } else if mode == .append || isSpecialPath(path) {
      try writeThrough(data, to: path)
      return
    }
    try replace(with: data, at: target(of: path), shownAs: path)
  }

  /// Whether a path holds a regular file (or a symlink to one) or nothing yet: only such a path can be rewritten as a
  /// run goes; a FIFO or device is written once, at the end.
  package static func isReplaceable(_ path: String) -> Bool {
    guard !path.isEmpty, !isSpecialPath(path) else { return false }
    var info = stat()
    guard stat(path, &info) == 0 else { return errno == ENOENT }
    return info.st_mode & S_IFMT == S_IFREG
  }

  /// `/dev/…` and `/proc/…` name streams (`/dev/stdout` is a link to whatever fd 1 is); they are never replaced.
  private static func isSpecialPath(_ path: String) -> Bool {
    path.hasPrefix("/dev/") || path.hasPrefix("/proc/")
  }

  /// The regular file a path stands for: symlinks followed (also a dangling one, whose target is created).
  static func target(of path: String) -> String {
    var current = path
    for _ in 0..<40 {
      guard let destination = try? FileManager.default.destinationOfSymbolicLink(atPath: current) else {
        return current
      }
      current =
        destination.hasPrefix("/")
        ? destination
        : (URL(fileURLWithPath: current).deletingLastPathComponent().path as NSString).appendingPathComponent(
          destination)
    }
    return current
  }

  /// Opens the path for appending (a stream has no start to go back to) without blocking, and writes every byte: a
  /// FIFO nobody reads within a second is refused, and one whose reader stops reading for `streamPatience` seconds
  /// is given up on, so a report path never stalls the run.
  private static func writeThrough(_ data: Data, to path: String) throws(WriteError) {
    var descriptor = open(path, O_WRONLY | O_CREAT | O_APPEND | O_NONBLOCK | O_CLOEXEC, 0o644)
    // A reader starting up at the same moment gets a second to open its end.
    for _ in 0..<20 where descriptor < 0 && errno == ENXIO {
      usleep(50_000)
      descriptor = open(path, O_WRONLY | O_APPEND | O_NONBLOCK | O_CLOEXEC)
    }
    guard descriptor >= 0 else {
      throw WriteError(path: path, reason: errno == ENXIO ? "it is a named pipe (FIFO) that nobody reads" : errorText())
    }
    defer { close(descriptor) }
    try writeAll(data, to: descriptor, path: path)
  }

  /// How long a stream (a FIFO, a terminal, a pipe) may take no bytes before its report is given up on.
  static let streamPatience: Int32 = 10

  /// Writes to a temporary file beside the target, then renames it over the target.
  private static func replace(with data: Data, at target: String, shownAs path: String) throws(WriteError) {
    let folder = URL(fileURLWithPath: target).deletingLastPathComponent().path
    do {
      try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    } catch {
      let reason = FileManager.default.fileExists(atPath: folder) ? "\(Quoted.string(folder)) is not a folder" : nil
      throw WriteError(path: path, reason: reason ?? "its folder cannot be created")
    }
    let name = URL(fileURLWithPath: target).lastPathComponent
    var template = Array((folder as NSString).appendingPathComponent(".\(name).XXXXXX").utf8CString)
    let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
    guard descriptor >= 0 else { throw WriteError(path: path, reason: errorText()) }
    let temporary = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
    do throws(WriteError) {
      defer { close(descriptor) }
      try writeAll(data, to: descriptor, path: path)
      fchmod(descriptor, 0o644)
    } catch {
      unlink(temporary)
      throw error
    }
    // The file replaced is held open across the rename and closed on another thread: dropping its last link frees
    // its blocks, 5 ms for a 10 000-case report, which the caller (a run's first and last milliseconds) never waits on.
    let replaced = open(target, O_RDONLY | O_CLOEXEC)
    defer { if replaced >= 0 { DispatchQueue.global(qos: .utility).async { close(replaced) } } }
    guard rename(temporary, target) == 0 else {
      let reason = errorText()
      unlink(temporary)
      throw WriteError(path: path, reason: reason)
    }
  }

  private static func writeAll(_ data: Data, to descriptor: Int32, path: String) throws(WriteError) {
    let failure: String? = data.withUnsafeBytes { buffer in
      var offset = 0
      while offset < buffer.count {
        let written = Foundation.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
        if written < 0 {
          if errno == EINTR { continue }
          if errno == EAGAIN {
            var ready = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
            if poll(&ready, 1, streamPatience * 1_000) > 0 { continue }
            return "its reader took nothing for \(streamPatience) s"
          }
          return errorText()
        }
        offset += written
      }
      return nil
    }
    if let failure { throw WriteError(path: path, reason: failure) }
  }

  /// The current `errno` in words, e.g. "Permission denied".
  private static func errorText() -> String {
    String(cString: strerror(errno)).lowercased()
  }
}
