extension MarkdownReport {
  /// How much the report may hold.
  package struct Limits: Sendable, Hashable {
    /// The most UTF-8 bytes the report may take; GitHub accepts 1 MiB (1,048,576 bytes) per step summary.
    package var maxBytes: Int
    /// The most failing vectors shown with their diff in one rule group; the rest are listed by id.
    package var detailedPerGroup: Int
    /// The most vector ids (or skip reasons) listed in one group; the rest are counted.
    package var listedPerGroup: Int
    /// The most characters of one code block (a diff, an error message); a longer one is cut with a note.
    package var maxBlockCharacters: Int
    /// The most errors shown with their message; the rest are listed by id.
    package var detailedErrors: Int

    /// Creates limits; the defaults keep a report of any size under GitHub's 1 MiB with room to spare.
    package init(
      maxBytes: Int = 1_000_000, detailedPerGroup: Int = 10, listedPerGroup: Int = 20,
      maxBlockCharacters: Int = 4_000, detailedErrors: Int = 20
    ) {
      self.maxBytes = maxBytes
      self.detailedPerGroup = detailedPerGroup
      self.listedPerGroup = listedPerGroup
      self.maxBlockCharacters = maxBlockCharacters
      self.detailedErrors = detailedErrors
    }
  }
}
