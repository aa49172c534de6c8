import Foundation

/// The one way the harness reads a file it was given (vectors, configuration, waivers, JUnit reports, a cookie jar, a
/// CA file, the corpus's own files): opened without blocking, refused unless it is a regular file, and read up to a
/// limit stated for its kind, so a FIFO, `/dev/zero` or a huge file can neither stall the run nor fill the memory.
///
/// Reasons come from `strerror` or are written out, never a Foundation error code.
package enum InputFile {
  /// Why a file cannot be read.
  package struct ReadError: Error, Sendable, Hashable {
    /// The reason, in words, e.g. "permission denied".
    package var reason: String
  }

  /// What a file is read as: its name in a sentence, and the most bytes it may hold.
  package struct Kind: Sendable, Hashable {
    /// The kind in words, e.g. "a vector file".
    package var name: String
    /// The most bytes a file of this kind may hold; a larger one is refused before it is read.
    package var limit: Int

    /// A vector file: 100 000 vectors take about 60 MB.
    package static let vectors = Kind(name: "a vector file", limit: 256 << 20)
    /// A partner configuration.
    package static let configuration = Kind(name: "a configuration file", limit: 4 << 20)
    /// A waiver file.
    package static let waivers = Kind(name: "a waiver file", limit: 64 << 20)
    /// A partner's `rules.json` or `flags.json`.
    package static let definitions = Kind(name: "a definitions file", limit: 16 << 20)
    /// A JUnit report read back (`merge-junit`, `--waivers-from`): 100 000 test cases take about 25 MB.
    package static let junit = Kind(name: "a JUnit report", limit: 512 << 20)
    /// A cookie jar or a PEM CA file of the endpoint profile.
    package static let endpointFile = Kind(name: "a cookie jar or CA file", limit: 4 << 20)
    /// A file of the corpus the lint reads (`RULES.md`, `Vectors/manifest.json`, `Vectors/flags.json`).
    package static let corpusFile = Kind(name: "a corpus file", limit: 16 << 20)
  }

  /// The file's bytes; anything but a regular file (a folder, a FIFO, a device, a socket), a file larger than the
  /// kind's limit, and one that cannot be opened are refused with a reason. A FIFO is never waited on.
  package static func read(_ path: String, as kind: Kind) throws(ReadError) -> Data {
    let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
    guard descriptor >= 0 else { throw ReadError(reason: errnoText()) }
    defer { close(descriptor) }
    var info = stat()
    guard fstat(descriptor, &info) == 0 else { throw ReadError(reason: errnoText()) }
    if let other = notRegular(info.st_mode) { throw ReadError(reason: other) }
    if Int(info.st_size) > kind.limit { throw tooLarge(kind) }
    var data = Data(count: Int(info.st_size) + 1)
    var count = 0
    while true {
      if count == data.count {
        // The file grew while it was read: read on, up to one byte past the limit.
        guard count <= kind.limit else { throw tooLarge(kind) }
        data.count = min(kind.limit + 1, max(count * 2, 4_096))
      }
      let got = data.withUnsafeMutableBytes { Foundation.read(descriptor, $0.baseAddress! + count, $0.count - count) }
      if got < 0 {
        if errno == EINTR { continue }
        throw ReadError(reason: errnoText())
      }
      if got == 0 { break }
      count += got
    }
    data.count = count
    return data
  }

  /// Whether a path names a regular file (or a symlink to one) that can be opened, without reading it; `nil` when it
  /// can, else the reason, as `read` would give it.
  package static func problem(at path: String) -> String? {
    var info = stat()
    guard stat(path, &info) == 0 else { return errnoText() }
    if let other = notRegular(info.st_mode) { return other }
    return access(path, R_OK) == 0 ? nil : errnoText()
  }

  /// What a file of this mode is when it is not a regular file, in words.
  static func notRegular(_ mode: mode_t) -> String? {
    switch mode & S_IFMT {
    case S_IFREG: nil
    case S_IFDIR: "it is a folder, not a file"
    case S_IFIFO: "it is a named pipe (FIFO), not a regular file"
    case S_IFCHR, S_IFBLK: "it is a device, not a regular file"
    case S_IFSOCK: "it is a socket, not a regular file"
    default: "it is not a regular file"
    }
  }

  private static func tooLarge(_ kind: Kind) -> ReadError {
    ReadError(reason: "it is larger than the \(kind.limit >> 20) MB \(kind.name) may hold; pass a smaller file")
  }

  /// The current `errno` in words, e.g. "no such file or directory"; a symlink loop says so.
  static func errnoText() -> String {
    errno == ELOOP ? "it is a symlink loop" : String(cString: strerror(errno)).lowercased()
  }
}
