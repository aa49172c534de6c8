#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Selects vectors by id glob and tag; an empty filter selects everything.
public struct VectorFilter: Sendable, Hashable {
  /// Id patterns with `*` (any run of characters), `?` (one character) and `\` escapes; a vector matching any is kept.
  public var idPatterns: [String]
  /// Tags; a vector carrying any is kept.
  public var tags: [String]
  /// Levels; a vector of any is kept.
  public var levels: [Level]
  /// Bug classes (flags); a vector flagged with any is kept.
  public var flags: [String]

  /// Creates a filter.
  public init(idPatterns: [String] = [], tags: [String] = [], levels: [Level] = [], flags: [String] = []) {
    self.idPatterns = idPatterns
    self.tags = tags
    self.levels = levels
    self.flags = flags
  }

  /// Whether a vector passes the filter: every kind of criterion given must match.
  package func matches(_ vector: Vector) -> Bool {
    (idPatterns.isEmpty || idPatterns.contains { Self.glob($0, matches: vector.id) })
      && (tags.isEmpty || tags.contains { vector.tags.contains($0) })
      && (levels.isEmpty || levels.contains(vector.level))
      && (flags.isEmpty || flags.contains { vector.flags.contains($0) })
  }

  /// The catalog with only matching vectors; problems are kept, since a bad file is never filtered away.
  public func apply(to catalog: VectorCatalog) -> VectorCatalog {
    VectorCatalog(
      vectors: catalog.vectors.filter { matches($0.vector) }, problems: catalog.problems,
      definitions: catalog.definitions)
  }

  /// Whether `text` matches a glob of `*` (any run of characters) and `?` (one character); a backslash makes the
  /// next character literal (`\*`, `\?`, `\\`), as in POSIX `fnmatch`, so an id written from a run is never a glob.
  /// `fnmatch` reads `?` as one byte (in the C locale) or one multibyte character: the same for ids, which are ASCII
  /// (`VectorValidator`); a pattern's other characters match exactly their bytes, never a Unicode-equivalent form.
  package static func glob(_ pattern: String, matches text: String) -> Bool {
    // fnmatch with every other character escaped: no bracket expressions, and a trailing backslash is itself.
    var escaped = ""
    var escaping = false
    for character in pattern {
      if !escaping && character == "\\" {
        escaping = true
      } else if !escaping && (character == "*" || character == "?") {
        escaped.append(character)
      } else {
        escaping = false
        for scalar in character.unicodeScalars { escaped += "\\" + String(scalar) }
      }
    }
    if escaping { escaped += "\\\\" }
    // A C string ends at its first NUL, and no id holds one.
    return !escaped.utf8.contains(0) && !text.utf8.contains(0) && fnmatch(escaped, text, 0) == 0
  }

  /// `text` as a glob that matches exactly `text`: `\`, `*` and `?` are escaped with a backslash.
  package static func escaped(_ text: String) -> String {
    var out = ""
    for character in text {
      if character == "\\" || character == "*" || character == "?" { out.append("\\") }
      out.append(character)
    }
    return out
  }
}
