import AppFlipConformance
import Foundation

/// A lock-protected cache of granted codes by incoming link: the store behind the code-reuse bug.
public final class CodeCache: Sendable {
  private let codes = Locked<[String: String]>([:])

  /// Creates an empty cache.
  public init() {}

  /// The code remembered for a link, if any.
  public func code(for link: String) -> String? {
    codes.withLock { $0[link] }
  }

  /// Remembers a code for a link.
  public func remember(_ code: String, for link: String) {
    codes.withLock { $0[link] = code }
  }
}
