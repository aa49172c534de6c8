import Foundation

/// What an authorization endpoint answered to one request: the status, the `Location` headers and the page's text.
struct EndpointAnswer: Sendable, Hashable {
  /// The HTTP status code.
  var status: Int
  /// Every `Location` header as received, in order (one, in a sound redirect).
  var locations: [String]
  /// A raw CR, LF or NUL inside a header (RFC 9110 §5.5), where it was found.
  var rawControl: EndpointHead.RawControl?
  /// The start of the page's text (markup removed), for messages.
  var bodyExcerpt: String
  /// More of the page's text, for the preflight's diagnosis.
  var page: String
  /// Whether the page asks for a password (a login form).
  var asksForPassword: Bool
  /// The header fields as received, for a token endpoint's answer (`Cache-Control`, `Content-Type`); none when the
  /// answer was made without a head.
  var head: EndpointHead?
  /// The body as received (at most `EndpointHTTPClient.bodyLimit` bytes), for a token endpoint's JSON.
  var body: [UInt8] = []

  /// How many characters of a page messages quote.
  static let excerptLength = 300

  /// The `Location` header; the first when there are several.
  var location: String? { locations.first }

  /// What makes the answer's headers unusable for a browser, in words (APPFLIP-RULES AF-EP-6): a raw CR, LF or NUL
  /// in a header, or more than one `Location` (RFC 9110 §10.2.2: one URI; a second one arrives through header
  /// injection, and browsers refuse the answer); `nil` when they are sound.
  var headerFault: String? {
    if let rawControl { return rawControl.description }
    guard locations.count > 1 else { return nil }
    let quoted = locations.prefix(3).map { Quoted.string(EndpointError.short($0)) }.joined(separator: ", ")
    return "the answer has \(locations.count) Location headers (\(quoted)\(locations.count > 3 ? ", …" : ""))"
  }

  /// Records an answer with all its `Location` headers.
  init(
    status: Int, locations: [String], rawControl: EndpointHead.RawControl?, body: some Collection<UInt8>
  ) {
    self.status = status
    self.locations = locations
    self.rawControl = rawControl
    page = Self.pageText(of: body, limit: 2000)
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
        throw .invalidLocation(status: head.status, start: EndpointHead.printable(field.value.prefix(120)))
      }
      locations.append(text)
    }
    self.init(status: head.status, locations: locations, rawControl: head.rawControl, body: body)
    self.head = head
    self.body = body
  }

  /// The readable text of an HTML (or plain) body for messages, at most `limit` characters: markup, scripts and
  /// styles removed, a few entities decoded, whitespace collapsed, so a server's own error ("Mismatching redirect URI.")
  /// shows instead of its HTML.
  static func pageText(of body: some Collection<UInt8>, limit: Int) -> String {
    var html = String(decoding: body.prefix(256 * 1024), as: UTF8.self)
    for element in ["script", "style", "head"] {
      while let open = html.range(of: "<\(element)", options: .caseInsensitive) {
        let close = html.range(of: "</\(element)>", options: .caseInsensitive, range: open.upperBound..<html.endIndex)
        html.removeSubrange(open.lowerBound..<(close?.upperBound ?? html.endIndex))
      }
    }
    var text = ""
    var inTag = false
    for character in html {
      if character == "<" {
        inTag = true
        text.append(" ")
      } else if character == ">" && inTag {
        inTag = false
      } else if !inTag {
        text.append(character)
      }
    }
    for (entity, value) in [
      ("&lt;", "<"), ("&gt;", ">"), ("&quot;", "\""), ("&#39;", "'"), ("&#x27;", "'"),
      ("&nbsp;", " "), ("&amp;", "&"),
    ] {
      text = text.replacingOccurrences(of: entity, with: value)
    }
    let words = text.split(whereSeparator: { $0.isWhitespace || $0.isNewline })
    var joined = words.joined(separator: " ")
    if joined.count > limit { joined = String(joined.prefix(limit)) + " …" }
    return joined
  }
}
