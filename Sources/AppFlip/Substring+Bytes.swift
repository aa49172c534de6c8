extension Substring {
  /// The index of the first `byte`, searched in UTF-8 rather than by `Character`: a `&` or `#` followed by a combining
  /// mark is one grapheme, so `firstIndex(of: "&")` would miss it.
  func firstIndex(ofByte byte: UInt8) -> Index? {
    utf8.firstIndex(of: byte)
  }

  /// The pieces between occurrences of an ASCII `byte`, searched in UTF-8; empty pieces are dropped.
  func split(onByte byte: UInt8) -> [Substring] {
    var pieces: [Substring] = []
    var start = startIndex
    for index in utf8.indices where utf8[index] == byte {
      if start < index { pieces.append(self[start..<index]) }
      start = utf8.index(after: index)
    }
    if start < endIndex { pieces.append(self[start...]) }
    return pieces
  }
}
