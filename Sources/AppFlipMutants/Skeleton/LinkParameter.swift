/// One `name=value` pair of an incoming link as a partner handler splits it; `nil` marks a part that did not decode.
public struct LinkParameter: Sendable, Hashable {
  /// The decoded name, or `nil` when its escapes are broken.
  public var name: String?
  /// The decoded value (empty for a bare name), or `nil` when its escapes are broken or it is not UTF-8.
  public var value: String?

  /// Creates a parameter from its decoded parts.
  public init(name: String?, value: String?) {
    self.name = name
    self.value = value
  }
}
