import Foundation

extension VectorLoader {
  /// The catalogs of files loaded concurrently, each in its own slot.
  final class ResultSlots: Sendable {
    private let slots: Locked<[VectorCatalog]>

    init(count: Int) { slots = Locked(Array(repeating: VectorCatalog(), count: count)) }

    func set(_ index: Int, _ catalog: VectorCatalog) { slots.withLock { $0[index] = catalog } }

    var values: [VectorCatalog] { slots.withLock { $0 } }
  }
}
