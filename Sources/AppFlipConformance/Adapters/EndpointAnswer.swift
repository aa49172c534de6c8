/// What an authorization endpoint answered to one request: the status, the `Location` header and the start of the body.
struct EndpointAnswer: Sendable, Hashable {
  /// The HTTP status code.
  var status: Int
  /// The `Location` header as received; several headers arrive joined with `", "`.
  var location: String?
  /// The first bytes of the body as text, for messages.
  var bodyExcerpt: String

  /// How many bytes of a body messages quote.
  static let excerptLength = 300

  /// Records an answer, keeping only the start of the body.
  init(status: Int, location: String?, body: some Collection<UInt8>) {
    self.status = status
    self.location = location
    let text = String(decoding: body.prefix(Self.excerptLength), as: UTF8.self)
    bodyExcerpt =
      text.split(whereSeparator: \.isNewline).joined(separator: " ")
      + (body.count > Self.excerptLength ? " …" : "")
  }
}
