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
