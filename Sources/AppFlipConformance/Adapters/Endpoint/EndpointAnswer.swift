/// What an authorization endpoint answered to one request: the status, the `Location` header and the page's text.
struct EndpointAnswer: Sendable, Hashable {
  /// The HTTP status code.
  var status: Int
  /// The `Location` header as received; several headers arrive joined with `", "`.
  var location: String?
  /// The start of the page's text (markup removed), for messages.
  var bodyExcerpt: String
  /// More of the page's text, for the preflight's diagnosis.
  var page: String
  /// Whether the page asks for a password (a login form).
  var asksForPassword: Bool

  /// How many characters of a page messages quote.
  static let excerptLength = 300

  /// Records an answer, keeping only the text of the start of the body.
  init(status: Int, location: String?, body: some Collection<UInt8>) {
    self.status = status
    self.location = location
    page = EndpointPageText.text(of: body, limit: 2000)
    bodyExcerpt = page.count > Self.excerptLength ? String(page.prefix(Self.excerptLength)) + " …" : page
    let raw = String(decoding: body.prefix(256 * 1024), as: UTF8.self).lowercased()
    asksForPassword =
      raw.contains("type=\"password\"") || raw.contains("type='password'") || raw.contains("type=password")
  }

  /// Reads an answer from its head and body; a `Location` that is not UTF-8 is an error, never repaired.
  init(head: EndpointHead, body: [UInt8], url: String) throws(EndpointError) {
    var locations: [String] = []
    for field in head.fields where field.name == "location" {
      let text = String(decoding: field.value, as: UTF8.self)
      guard Array(text.utf8) == field.value else {
        throw .invalidLocation(status: head.status, start: EndpointPageText.printable(field.value.prefix(120)))
      }
      locations.append(text)
    }
    self.init(status: head.status, location: locations.isEmpty ? nil : locations.joined(separator: ", "), body: body)
  }
}
