import Foundation

/// The placeholders parsed so far in this process, by their inside text: a corpus spells only a few dozen, and every
/// run of every vector renders them again, so each is parsed once.
final class PlaceholderCache: Sendable {
  /// The process's cache.
  static let shared = PlaceholderCache()

  private let cache = Locked<[String: Result<Placeholder, Placeholder.ParseError>]>([:])

  /// `Placeholder.parse(inner)`, parsed on first use; bounded, so generated text cannot grow it without end.
  func parsed(_ inner: String) -> Result<Placeholder, Placeholder.ParseError> {
    if let known = cache.withLock({ $0[inner] }) { return known }
    let result = Placeholder.parse(inner)
    cache.withLock { parsed in
      if parsed.count >= 4_096 { parsed.removeAll(keepingCapacity: true) }
      parsed[inner] = result
    }
    return result
  }
}
