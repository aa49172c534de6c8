import Foundation

/// The commit of a git checkout, read from its files (no git needed): `HEAD`, followed through a worktree's `.git` file
/// and a symbolic ref, loose or packed (git-repository-layout(5)).
enum GitCommit {
  /// The commit checked out at `root`, in hex; `nil` when `root` is no git checkout or its files cannot be read.
  static func read(root: URL) -> String? {
    let dotGit = root.appendingPathComponent(".git")
    var gitDir = dotGit
    if let pointer = text(dotGit), pointer.hasPrefix("gitdir:") {
      // A worktree or submodule: `.git` is a file naming the real folder, absolute or relative to the checkout.
      let path = pointer.dropFirst("gitdir:".count).trimmingCharacters(in: .whitespaces)
      gitDir = path.hasPrefix("/") ? URL(fileURLWithPath: path) : root.appendingPathComponent(path)
    }
    guard let head = text(gitDir.appendingPathComponent("HEAD")) else { return nil }
    guard head.hasPrefix("ref:") else { return isHash(head) ? head : nil }
    let ref = head.dropFirst("ref:".count).trimmingCharacters(in: .whitespaces)
    // A worktree keeps its refs in the common folder its `commondir` file names.
    var folders = [gitDir]
    if let common = text(gitDir.appendingPathComponent("commondir")) {
      folders.append(common.hasPrefix("/") ? URL(fileURLWithPath: common) : gitDir.appendingPathComponent(common))
    }
    for folder in folders {
      if let loose = text(folder.appendingPathComponent(ref)), isHash(loose) { return loose }
    }
    for folder in folders {
      for line in (text(folder.appendingPathComponent("packed-refs")) ?? "").split(separator: "\n") {
        let parts = line.split(separator: " ")
        if parts.count == 2, parts[1] == ref, isHash(String(parts[0])) { return String(parts[0]) }
      }
    }
    return nil
  }

  /// A file's text without surrounding whitespace, or `nil` when it cannot be read; refs are a line each.
  private static func text(_ url: URL) -> String? {
    guard let data = try? Data(contentsOf: url), data.count < 1 << 20 else { return nil }
    return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
  }

  /// Whether a string is a SHA-1 or SHA-256 object name in lower-case hex.
  static func isHash(_ string: String) -> Bool {
    (string.utf8.count == 40 || string.utf8.count == 64)
      && string.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
  }
}
