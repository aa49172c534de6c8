import Foundation

/// The suite's name, version and commit, pinned in every report.
public enum SuiteInfo {
  /// The tool's name.
  package static let name = "appflip-conformance"
  /// The suite's version (semantic versioning; each release is a git tag of this name, listed in CHANGELOG.md).
  public static let version = "0.1.0"
  /// The commit of the package checkout this suite was built from, read when it first runs from the checkout's git
  /// files (a clone, a worktree, or SwiftPM's checkout of a dependency); `unknown` when the checkout is gone (a binary
  /// copied elsewhere) or is no git checkout (a source archive).
  package static let commit: String = {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent()
    return GitCommit.read(root: root) ?? "unknown"
  }()

  /// `appflip-conformance 0.1.0 (commit 1a2b3c4d5e6f)`: the name, the version, and the commit's first 12 digits.
  package static var described: String { "\(name) \(version) (commit \(commit.prefix(12)))" }
}

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
