import Foundation

/// The files a command reads and writes, checked before anything runs: a report may land neither on an input nor on
/// another report, however the two paths are spelled (`./r.xml` and `r.xml`, a symlink, a hard link).
package struct FilePaths: Sendable {
  /// A file and the option that names it, e.g. `--json "r.json"`.
  package struct Role: Sendable, Hashable, CustomStringConvertible {
    /// The option, e.g. `--json`.
    package var option: String
    /// The path as shown: as given, or a file in a folder given.
    package var path: String
    /// Whether the command reads it.
    package var isInput: Bool
    /// The path to look at on disk (`path`, unless a shown path escapes control characters).
    var file: String?

    /// The option and the path, quoted.
    package var description: String { "\(option) \(Quoted.string(path))" }
  }

  private(set) var roles: [Role] = []

  /// Adds a file the command reads; a vector folder adds the folder and every file the loader would read in it.
  mutating func input(_ option: String, _ path: String?) {
    guard let path else { return }
    roles.append(Role(option: option, path: path, isInput: true))
    guard option == "--vectors",
      case .success(let listing) = VectorLoader.list(URL(fileURLWithPath: path), displayPath: path)
    else { return }
    for (url, shown) in listing.vectorFiles + listing.definitionFiles where url.path != path {
      roles.append(Role(option: option, path: shown, isInput: true, file: url.path))
    }
  }

  /// Adds a file the command writes.
  mutating func output(_ option: String, _ path: String?) {
    if let path { roles.append(Role(option: option, path: path, isInput: false)) }
  }

  /// Refuses the first output that is the same file as an input or an earlier output, and an output path that cannot
  /// be resolved (a symlink loop). `--write-waivers` may update the `--waivers` file it names; devices (`/dev/null`,
  /// a terminal) may be shared.
  func check() throws(UsageError) {
    var seen: [(Role, Identity)] = []
    for role in roles.filter(\.isInput) + roles.filter({ !$0.isInput }) {
      let identity: Identity?
      switch Self.identity(of: role.file ?? role.path) {
      case .failure(let reason):
        guard !role.isInput else { continue }  // the reading says why, in its own words
        throw .unresolvablePath(role, reason: reason.reason)
      case .success(let found): identity = found
      }
      guard let identity, identity != .device else { continue }
      if !role.isInput {
        for (other, otherIdentity) in seen where otherIdentity == identity {
          if role.option == "--write-waivers" && other.option == "--waivers" { continue }
          throw .sameFile(output: role, other: other)
        }
      }
      seen.append((role, identity))
    }
  }

  /// What a path stands for on disk.
  enum Identity: Hashable {
    /// An existing file, by device and inode.
    case file(UInt64, UInt64)
    /// A file not there yet, by the absolute path it would be created at (symlinks in its folder resolved).
    case new(String)
    /// A character device or a stream under `/dev/` or `/proc/`, which any number of writers may share.
    case device
  }

  /// The file a path stands for: an existing one by device and inode; a new one (or a dangling symlink's target) by
  /// its resolved path; `nil` when the path cannot be reached (writing or reading it says why). A symlink loop is a
  /// reason.
  static func identity(of path: String) -> Result<Identity?, InputFile.ReadError> {
    // Streams (`/dev/stdout`, `/proc/self/fd/1`) are written through, never replaced (`ReportFile`): any may share one.
    if path.hasPrefix("/dev/") || path.hasPrefix("/proc/") { return .success(.device) }
    var info = stat()
    if stat(path, &info) == 0 {
      if info.st_mode & S_IFMT == S_IFCHR { return .success(.device) }
      return .success(.file(UInt64(info.st_dev), UInt64(info.st_ino)))
    }
    if errno == ELOOP { return .failure(InputFile.ReadError(reason: InputFile.errnoText())) }
    guard errno == ENOENT else { return .success(nil) }  // writing says why (a file where a folder should be)
    let target = URL(fileURLWithPath: ReportFile.target(of: path)).standardizedFileURL
    let folder = target.deletingLastPathComponent().path
    guard let resolved = realpath(folder, nil) else { return .success(.new(target.path)) }
    defer { free(resolved) }
    return .success(.new((String(cString: resolved) as NSString).appendingPathComponent(target.lastPathComponent)))
  }
}
