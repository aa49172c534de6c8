import Testing

/// A Swift file under Sources holds a type or a real concern: at most 400 lines (readable in one sitting; split by role
/// otherwise, into `Type+Role.swift` files), and never only a helper that one other file uses, which belongs in that
/// file (issue 24: the 300-line cap had given private helpers a file each, 74 files of 25 lines or fewer).
@Suite("File length")
struct FileLengthTests {
  /// The most lines a Swift file under Sources may have.
  static let limit = 400
  /// A file this short, declaring only internal types, is a fragment when one other file alone uses them.
  static let fragment = 25

  /// The number of lines of a file's text.
  static func lineCount(_ file: SourceTree.File) -> Int {
    file.text.split(separator: "\n", omittingEmptySubsequences: false).count - 1
  }

  @Test("No Swift file under Sources is longer than 400 lines")
  func noLongFile() {
    let files = SourceTree.swiftFiles(under: "Sources")
    #expect(files.count > 100, "the scan finds the package's sources")
    for file in files where Self.lineCount(file) > Self.limit {
      Issue.record(
        "\(file.path) has \(Self.lineCount(file)) lines, more than \(Self.limit); split it by role into files of its type."
      )
    }
  }

  @Test("No source file of 25 lines or fewer holds only an internal helper that one other file uses")
  func noFragment() throws {
    let files = SourceTree.swiftFiles(under: "Sources")
    let internalType = try Regex(#"^(?:final )?(?:struct|class|enum|actor|protocol|typealias) ([A-Za-z_]\w*)"#)
    let topLevel = try Regex(
      #"^(?:@\w+ )*(?:(?:public|package|internal|private|fileprivate|final) )*(?:struct|class|enum|actor|protocol|typealias|extension|func|let|var) "#
    )
    var checked = 0
    for file in files where Self.lineCount(file) <= Self.fragment && !file.path.hasSuffix("/main.swift") {
      let declarations = file.lines.filter { (try? topLevel.prefixMatch(in: $0)) != nil }
      let helpers = file.lines.compactMap { try? internalType.prefixMatch(in: $0)?.output[1].substring }
      guard !helpers.isEmpty, helpers.count == declarations.count else { continue }
      checked += 1
      for name in helpers {
        let word = try Regex("\\b\(name)\\b")
        let users = files.filter { $0.path != file.path && $0.text.contains(word) }
        if users.count == 1 {
          Issue.record(
            "\(file.path) holds only \(name), a helper of \(users[0].path) alone; move it into that file.")
        }
      }
    }
    #expect(checked >= 3, "the scan finds the shared helpers of Support/ (ByteSet, Hex, Spelling)")
  }
}
