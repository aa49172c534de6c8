import Foundation
import Testing

@testable import AppFlipConformance

/// Issue 23, item 7: reports name the suite's version and the commit it was built from, read from the checkout's git
/// files without git; each release is a tag the changelog names.
@Suite("Versions and commits")
struct VersionTests {
  let root: URL = {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("git-\(UUID().uuidString)")
    try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
  }()

  static let commit = "0123456789abcdef0123456789abcdef01234567"

  func write(_ path: String, _ text: String) throws {
    let url = root.appendingPathComponent(path)
    try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    try Data(text.utf8).write(to: url)
  }

  @Test("The commit is read from a detached HEAD, a loose ref, a packed ref, and a worktree's common folder")
  func layouts() throws {
    defer { try? FileManager.default.removeItem(at: root) }
    #expect(GitCommit.read(root: root) == nil)
    try write("clone/.git/HEAD", Self.commit + "\n")
    #expect(GitCommit.read(root: root.appendingPathComponent("clone")) == Self.commit)
    try write("loose/.git/HEAD", "ref: refs/heads/main\n")
    try write("loose/.git/refs/heads/main", Self.commit + "\n")
    #expect(GitCommit.read(root: root.appendingPathComponent("loose")) == Self.commit)
    try write("packed/.git/HEAD", "ref: refs/heads/main\n")
    try write("packed/.git/packed-refs", "# pack-refs with: peeled\n\(Self.commit) refs/heads/main\n^abc\n")
    #expect(GitCommit.read(root: root.appendingPathComponent("packed")) == Self.commit)
    try write("main/.git/worktrees/wt/HEAD", "ref: refs/heads/feature\n")
    try write("main/.git/worktrees/wt/commondir", "../..\n")
    try write("main/.git/refs/heads/feature", Self.commit)
    try write("wt/.git", "gitdir: \(root.path)/main/.git/worktrees/wt\n")
    #expect(GitCommit.read(root: root.appendingPathComponent("wt")) == Self.commit)
    try write("broken/.git/HEAD", "ref: refs/heads/gone\n")
    #expect(GitCommit.read(root: root.appendingPathComponent("broken")) == nil)
  }

  @Test("The suite names the commit of this checkout, as git itself reads it, in --version and every report")
  func thisCheckout() async throws {
    defer { try? FileManager.default.removeItem(at: root) }
    let git = Process()
    git.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    git.arguments = ["git", "-C", SourceTree.root.path, "rev-parse", "HEAD"]
    let pipe = Pipe()
    git.standardOutput = pipe
    git.standardError = FileHandle.nullDevice
    let head = try await offCooperativePool {
      try git.run()
      defer { git.waitUntilExit() }
      return String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        .trimmingCharacters(in: .whitespacesAndNewlines)
    }
    // A source archive has no git files, and then git has no HEAD either: both say so.
    #expect(SuiteInfo.commit == (git.terminationStatus == 0 ? head : "unknown"))
    let captured = CapturedOutput()
    #expect(await ConformanceCommand.run(["--version"], output: captured.output) == .success)
    #expect(captured.out == "appflip-conformance \(SuiteInfo.version) (commit \(SuiteInfo.commit.prefix(12)))")
  }

  @Test("Every release in CHANGELOG.md names its tag, and the newest is the suite's version")
  func changelogTags() throws {
    let text = try String(contentsOf: SourceTree.root.appendingPathComponent("CHANGELOG.md"), encoding: .utf8)
    let releases = text.split(separator: "\n").filter { $0.hasPrefix("## [") && !$0.hasPrefix("## [Unreleased]") }
    #expect(!releases.isEmpty)
    for heading in releases {
      let version = heading.dropFirst(4).prefix { $0 != "]" }
      #expect(heading.hasSuffix("(tag `\(version)`)"), "\(heading) names no tag `\(version)`")
    }
    #expect(releases.first?.dropFirst(4).prefix { $0 != "]" } == Substring(SuiteInfo.version))
  }
}
