/// A set of bytes as a 256-bit mask, tested without a branch: the checks that read every byte of every link and reply
/// test letters (64–127) and digits and punctuation (0–63) in turn, and a branch on which half a byte is in is
/// mispredicted about as often as it is taken.
struct ByteSet: Sendable {
  /// Bits 0–63, 64–127, 128–191 and 192–255.
  let words: SIMD4<UInt64>

  /// The set of the bytes for which `member` is true.
  init(_ member: (UInt8) -> Bool) {
    var words = SIMD4<UInt64>(repeating: 0)
    for byte in UInt8.min...UInt8.max where member(byte) {
      words[Int(byte >> 6)] |= 1 << UInt64(byte & 63)
    }
    self.words = words
  }

  /// Whether `byte` is in the set.
  @inline(__always)
  func contains(_ byte: UInt8) -> Bool {
    (words[Int(byte &>> 6)] &>> UInt64(byte & 63)) & 1 != 0
  }
}
