/// The query of a URL string split into parameters: from the first `?` to the first `#`, split on `&` only.
public struct URLQuery: Sendable, Hashable {
  /// Everything before the first `?` (or `#`), byte for byte.
  public var base: Substring
  /// The parameters in order; empty segments (`&&`) are skipped.
  public var parameters: [QueryParameter]
  /// The fragment after the first `#`, if any; never part of the query (RFC 3986 §3.5).
  public var fragment: Substring?

  /// Splits a URL string without normalizing any part of it.
  public init(_ url: String) {
    let whole = Substring(url)
    let hash = whole.firstIndex(of: "#")
    let beforeFragment = hash.map { whole[..<$0] } ?? whole
    fragment = hash.map { whole[whole.index(after: $0)...] }
    if let question = beforeFragment.firstIndex(of: "?") {
      base = beforeFragment[..<question]
      let query = beforeFragment[beforeFragment.index(after: question)...]
      parameters = query.split(separator: "&", omittingEmptySubsequences: true).map(QueryParameter.init(raw:))
    } else {
      base = beforeFragment
      parameters = []
    }
  }

  /// Every parameter whose decoded name is exactly `name`.
  public func parameters(named name: String) -> [QueryParameter] {
    parameters.filter { $0.name.map { Bytes.equal($0, name) } ?? false }
  }
}
