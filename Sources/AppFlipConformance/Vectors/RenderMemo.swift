/// The placeholder substitutions one catalog-run worker has made under its runner's configuration, by template text:
/// a corpus spells a few dozen templates (`{client_id}`, `{redirect_uri|upper}`, …) in hundreds of vectors, and each
/// substitution is a pure function of the template and that configuration.
///
/// A worker makes its own memo when it starts, so every run renders its vectors afresh; it is used by that worker's
/// task alone and only for vectors rendered with the runner's configuration (not one with its own override).
package final class RenderMemo: @unchecked Sendable {
  /// An empty memo.
  package init() {}

  /// Above this many templates the memo starts over, so generated text cannot grow it without end.
  static let limit = 4_096

  private var plain: [String: Result<String, RenderedStep.SkipReason>] = [:]
  private var encoded: [String: Result<String, RenderedStep.SkipReason>] = [:]

  /// The substitution of `template` (in a raw link when `encoded`), made by `substitute` the first time.
  func value(
    _ template: String, encoded isEncoded: Bool, _ substitute: () -> Result<String, RenderedStep.SkipReason>
  ) -> Result<String, RenderedStep.SkipReason> {
    if let known = isEncoded ? encoded[template] : plain[template] { return known }
    let value = substitute()
    if isEncoded {
      if encoded.count >= Self.limit { encoded.removeAll(keepingCapacity: true) }
      encoded[template] = value
    } else {
      if plain.count >= Self.limit { plain.removeAll(keepingCapacity: true) }
      plain[template] = value
    }
    return value
  }
}
