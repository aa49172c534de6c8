import AppFlip

/// The placeholder substitutions one catalog-run worker has made under its runner's configuration, by template text:
/// a corpus spells a few dozen templates (`{client_id}`, `{redirect_uri|upper}`, …) in hundreds of vectors, and each
/// substitution is a pure function of the template and that configuration.
///
/// A worker makes its own memo when it starts, so every run renders its vectors afresh; it is used by that worker's
/// task alone and only for vectors rendered with the runner's configuration (not one with its own override).
package final class RenderMemo: @unchecked Sendable {
  /// An empty memo, with room for the templates of a corpus like the bundled one.
  package init() {
    plain.reserveCapacity(512)
    encoded.reserveCapacity(64)
  }

  /// Above this many templates the memo starts over, so generated text cannot grow it without end.
  static let limit = 4_096

  /// A template, hashed and compared byte for byte: `String`'s own `==` equates canonically equivalent text (NFC and
  /// NFD), which renders to different bytes.
  private struct Template: Hashable {
    var text: String

    func hash(into hasher: inout Hasher) {
      var text = text
      text.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
    }

    static func == (lhs: Template, rhs: Template) -> Bool { Bytes.equal(lhs.text, rhs.text) }
  }

  private var plain: [Template: Result<String, RenderedStep.SkipReason>] = [:]
  private var encoded: [Template: Result<String, RenderedStep.SkipReason>] = [:]

  /// The substitution of `template` (in a raw link when `encoded`), made by `substitute` the first time.
  func value(
    _ template: String, encoded isEncoded: Bool, _ substitute: () -> Result<String, RenderedStep.SkipReason>
  ) -> Result<String, RenderedStep.SkipReason> {
    let key = Template(text: template)
    if let known = isEncoded ? encoded[key] : plain[key] { return known }
    let value = substitute()
    if isEncoded {
      if encoded.count >= Self.limit { encoded.removeAll(keepingCapacity: true) }
      encoded[key] = value
    } else {
      if plain.count >= Self.limit { plain.removeAll(keepingCapacity: true) }
      plain[key] = value
    }
    return value
  }
}
