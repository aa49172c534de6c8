import Foundation

extension VectorLoader {
  /// The parsed tree of a file, built only when a message needs a value from it.
  final class LazyTree {
    private let data: Data
    private var parsed: Any?

    init(_ data: Data) { self.data = data }

    var value: Any {
      if let parsed { return parsed }
      let tree = (try? JSONSerialization.jsonObject(with: data)) ?? [String: Any]()
      parsed = tree
      return tree
    }
  }
}
