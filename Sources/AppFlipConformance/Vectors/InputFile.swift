import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Reads a file the harness was given (vectors, configuration, waivers), with a reason a person can act on
/// (from `strerror`, never a Foundation error code).
enum InputFile {
  /// Why a file cannot be read.
  struct ReadError: Error, Sendable, Hashable {
    /// The reason, in words, e.g. "permission denied".
    var reason: String
  }

  /// The file's bytes; a folder, a missing file or one that cannot be opened is refused with a reason.
  static func read(_ path: String) throws(ReadError) -> Data {
    var info = stat()
    guard stat(path, &info) == 0 else { throw ReadError(reason: String(cString: strerror(errno)).lowercased()) }
    if info.st_mode & S_IFMT == S_IFDIR { throw ReadError(reason: "it is a folder, not a file") }
    guard let handle = FileHandle(forReadingAtPath: path) else {
      throw ReadError(reason: String(cString: strerror(errno)).lowercased())
    }
    defer { try? handle.close() }
    do {
      return try handle.readToEnd() ?? Data()
    } catch {
      throw ReadError(reason: "it cannot be read to the end")
    }
  }
}
