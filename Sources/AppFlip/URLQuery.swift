/// The query of a URL string split into parameters: from the first `?` to the first `#`, split on `&` only.
///
/// Delimiters are found in UTF-8, never by `Character`: `&` followed by U+0301 is one grapheme but still two parameters.
/// The split is one pass over the string's contiguous UTF-8; a value is decoded only when it is read.
package struct URLQuery: Sendable, Hashable {
  /// Everything before the first `?` (or `#`), byte for byte.
  package var base: Substring
  /// The parameters in order; empty segments (`&&`) are skipped.
  package var parameters: [QueryParameter]
  /// The fragment after the first `#`, if any; never part of the query (RFC 3986 §3.5).
  package var fragment: Substring?

  /// Splits a URL string without normalizing any part of it.
  package init(_ url: String) {
    var url = url
    url.makeContiguousUTF8()  // only a bridged string is copied, and then the storage below is always there
    let utf8 = url.utf8
    func index(_ offset: Int) -> String.Index { utf8.index(utf8.startIndex, offsetBy: offset) }
    var parameters: [QueryParameter] = []
    parameters.reserveCapacity(8)
    let (end, question) = utf8.withContiguousStorageIfAvailable { bytes in
      let hash = Bytes.first(UInt8(ascii: "#"), in: bytes, 0..<bytes.count)
      let end = hash ?? bytes.count
      guard let question = Bytes.first(UInt8(ascii: "?"), in: bytes, 0..<end) else { return (end, end) }
      var start = question + 1
      while start <= end {
        let ampersand = Bytes.first(UInt8(ascii: "&"), in: bytes, start..<end) ?? end
        if start < ampersand { parameters.append(QueryParameter(url, bytes, start..<ampersand)) }
        start = ampersand + 1
      }
      return (end, question)
    }!
    base = url[..<index(question)]
    self.parameters = parameters
    fragment = end < utf8.count ? url[index(end + 1)...] : nil
  }

  /// Every parameter whose decoded name is exactly `name`.
  package func parameters(named name: String) -> [QueryParameter] {
    parameters.filter { $0.name.map { Bytes.equal($0, name) } ?? false }
  }
}
