import Testing

/// Every Swift file under Sources stays readable in one sitting: at most 300 lines (split by role otherwise, into
/// `Type+Role.swift` or `Type.Nested.swift` files).
@Suite("File length")
struct FileLengthTests {
  /// The most lines a Swift file under Sources may have.
  static let limit = 300

  @Test("No Swift file under Sources is longer than 300 lines")
  func noLongFile() {
    let files = SourceTree.swiftFiles(under: "Sources")
    #expect(files.count > 100, "the scan finds the package's sources")
    for file in files {
      let count = file.text.split(separator: "\n", omittingEmptySubsequences: false).count - 1
      if count > Self.limit {
        Issue.record(
          "\(file.path) has \(count) lines, more than \(Self.limit); split it by role into files of its type.")
      }
    }
  }
}
