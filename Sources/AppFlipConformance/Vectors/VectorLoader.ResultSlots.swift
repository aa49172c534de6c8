import Foundation

extension VectorLoader {
  /// The catalogs of files loaded concurrently, each in its own slot.
  final class ResultSlots: @unchecked Sendable {
    private let lock = NSLock()
    private var slots: [VectorCatalog]

    init(count: Int) { slots = Array(repeating: VectorCatalog(), count: count) }

    func set(_ index: Int, _ catalog: VectorCatalog) { lock.withLock { slots[index] = catalog } }

    var values: [VectorCatalog] { lock.withLock { slots } }
  }
}
