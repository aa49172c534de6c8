/// A set of bytes as a 256-entry table, read with one load and no branch: the checks that read every byte of every
/// link and reply test letters and punctuation in turn, and a branch on a byte's class is mispredicted about as often
/// as it is taken.
final class ByteSet: @unchecked Sendable {
  /// One entry per byte, written once in `init` and only read afterwards.
  private let table: UnsafeMutablePointer<Bool>

  /// The set of the bytes for which `member` is true.
  init(_ member: (UInt8) -> Bool) {
    table = .allocate(capacity: 256)
    for byte in 0...255 { (table + byte).initialize(to: member(UInt8(byte))) }
  }

  deinit {
    table.deallocate()
  }

  /// Whether `byte` is in the set.
  @inline(__always)
  func contains(_ byte: UInt8) -> Bool {
    table[Int(byte)]
  }
}
