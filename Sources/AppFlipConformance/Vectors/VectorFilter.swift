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
  package static func glob(_ pattern: String, matches text: String) -> Bool {
    // Each token is a character to match literally, or a wildcard (nil literal).
    var tokens: [(literal: Character?, star: Bool)] = []
    var escaping = false
    for character in pattern {
      if escaping {
        tokens.append((character, false))
        escaping = false
      } else if character == "\\" {
        escaping = true
      } else if character == "*" {
        tokens.append((nil, true))
      } else if character == "?" {
        tokens.append((nil, false))
      } else {
        tokens.append((character, false))
      }
    }
    if escaping { tokens.append(("\\", false)) }
    let text = Array(text)
    var p = 0
    var t = 0
    var star: Int?
    var mark = 0
    while t < text.count {
      if p < tokens.count && !tokens[p].star && (tokens[p].literal == nil || tokens[p].literal == text[t]) {
        p += 1
        t += 1
      } else if p < tokens.count && tokens[p].star {
        star = p
        mark = t
        p += 1
      } else if let star {
        p = star + 1
        mark += 1
        t = mark
      } else {
        return false
      }
    }
    while p < tokens.count && tokens[p].star { p += 1 }
    return p == tokens.count
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
