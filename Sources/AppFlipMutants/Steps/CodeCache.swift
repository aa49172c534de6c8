import Foundation

/// A lock-protected cache of granted codes by incoming link: the store behind the code-reuse bug.
public final class CodeCache: @unchecked Sendable {
  private let lock = NSLock()
  private var codes: [String: String] = [:]

  /// Creates an empty cache.
  public init() {}

  /// The code remembered for a link, if any.
  public func code(for link: String) -> String? {
    lock.withLock { codes[link] }
  }

  /// Remembers a code for a link.
  public func remember(_ code: String, for link: String) {
    lock.withLock { codes[link] = code }
  }
}
