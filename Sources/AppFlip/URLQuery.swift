/// The query of a URL string split into parameters: from the first `?` to the first `#`, split on `&` only.
///
/// Delimiters are found in UTF-8, never by `Character`: `&` followed by U+0301 is one grapheme but still two parameters.
package struct URLQuery: Sendable, Hashable {
  /// Everything before the first `?` (or `#`), byte for byte.
  package var base: Substring
  /// The parameters in order; empty segments (`&&`) are skipped.
  package var parameters: [QueryParameter]
  /// The fragment after the first `#`, if any; never part of the query (RFC 3986 §3.5).
  package var fragment: Substring?

  /// Splits a URL string without normalizing any part of it.
  package init(_ url: String) {
    let whole = Substring(url)
    let hash = whole.utf8.firstIndex(of: UInt8(ascii: "#"))
    let beforeFragment = hash.map { whole[..<$0] } ?? whole
    fragment = hash.map { whole[whole.utf8.index(after: $0)...] }
    if let question = beforeFragment.utf8.firstIndex(of: UInt8(ascii: "?")) {
      base = beforeFragment[..<question]
      let query = beforeFragment[beforeFragment.utf8.index(after: question)...]
      parameters = query.split(onByte: UInt8(ascii: "&")).map(QueryParameter.init(raw:))
    } else {
      base = beforeFragment
      parameters = []
    }
  }

  /// Every parameter whose decoded name is exactly `name`.
  package func parameters(named name: String) -> [QueryParameter] {
    parameters.filter { $0.name.map { Bytes.equal($0, name) } ?? false }
  }
}

extension Substring {
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
