import AppFlip
import Foundation

/// A `{name.part|transform|…}` token in a vector string, filled in from the partner's configuration.
///
/// Near-misses are written against the configured values, never against a sample value, so every vector tests its
/// rule under the partner's own client id and allow-list: `{redirect_uri.host|upper}`, `{client_id|kelvin}`.
/// A transform that cannot change the configured value (no letter to upper-case, no `K`) makes the vector not apply:
/// it is skipped with that reason, never passed.
struct Placeholder: Sendable, Hashable {
  /// The configured value a placeholder starts from.
  enum Name: String, Sendable, Hashable, CaseIterable {
    /// The Google client id (`PartnerConfiguration.clientID`).
    case clientID = "client_id"
    /// The partner app's universal link.
    case universalLink = "universal_link"
    /// The vector's allowed redirect URL (`PartnerConfiguration.redirectSlot(for:)`).
    case redirectURI = "redirect_uri"
    /// The configured scopes, space-separated as the link's `scope` carries them; as a whole element of an expected
    /// authorization's `scopes`, the list itself.
    case scopes
    /// The allowed redirect URL after the vector's own: another App Flip URL the partner's server accepts (a token
    /// request's near miss, AF-TK-3); a vector that uses it does not apply to a configuration with one URL.
    case otherRedirectURI = "other_redirect_uri"
  }

  /// A piece of `{redirect_uri}`, as URL syntax: `https://HOST/a/BUNDLE`.
  enum Part: String, Sendable, Hashable, CaseIterable {
    /// `https`.
    case scheme
    /// `oauth-redirect.googleusercontent.com`.
    case host
    /// `https://oauth-redirect.googleusercontent.com`.
    case origin
    /// `/a/com.google.Chromecast`.
    case path
    /// `com.google.Chromecast`: the last path segment.
    case bundle
  }

  /// The configured value.
  var name: Name
  /// A piece of it, for `redirect_uri` only.
  var part: Part?
  /// The edits applied in order.
  var transforms: [PlaceholderTransform]

  /// How the token is written, e.g. `{redirect_uri.host|upper}`.
  var spelling: String {
    "{" + name.rawValue + (part.map { "." + $0.rawValue } ?? "") + transforms.map { "|" + $0.rawValue }.joined() + "}"
  }

  /// Whether a raw link gets the value percent-encoded: whole `client_id` and `redirect_uri` values are data in the
  /// query; the universal link and the parts of `redirect_uri` are URL syntax, and a value whose last transform
  /// encodes is encoded already, so those go in as they are.
  var isEncodedInRawLinks: Bool {
    part == nil && name != .universalLink && transforms.last?.isEncoding != true
  }

  /// The value for a configuration, `{redirect_uri}` standing for `redirectURI` (the vector's allowed URL, by default
  /// the first), or why the vector does not apply to it.
  func value(in configuration: PartnerConfiguration, redirectURI: String? = nil)
    -> Result<String, RenderedStep.SkipReason>
  {
    var value: String
    switch name {
    case .clientID: value = configuration.clientID
    case .universalLink: value = configuration.universalLink
    case .scopes: value = configuration.scopes.joined(separator: " ")
    case .redirectURI:
      let url = redirectURI ?? configuration.primaryRedirectURI
      value = part.map { RedirectParts(url).value(of: $0) } ?? url
    case .otherRedirectURI:
      let urls = configuration.allowList.urls
      guard urls.count > 1 else {
        return .failure(.notApplicable("{other_redirect_uri} needs a second allowed redirect URL"))
      }
      // The allowed URL after the vector's own (`redirectURI`), so the two always differ.
      let own = urls.firstIndex { Bytes.equal($0, redirectURI ?? configuration.primaryRedirectURI) } ?? 0
      value = urls[(own + 1) % urls.count]
    }
    for transform in transforms {
      guard let changed = transform.apply(value, allowList: configuration.allowList.urls), !Bytes.equal(changed, value)
      else {
        return .failure(
          .notApplicable(
            "\(spelling) needs \(transform.needs), and \(Quoted.string(value)) has none",
            isRedirectURITransform: name == .redirectURI))
      }
      value = changed
    }
    return .success(value)
  }
}

/// The pieces of a redirect URL: `scheme://host` then the path.
struct RedirectParts {
  var scheme: Substring
  var host: Substring
  var path: Substring

  init(_ url: String) {
    let bytes = url.utf8
    if let colon = url.utf8.firstIndex(of: UInt8(ascii: ":")),
      url.utf8[colon...].starts(with: "://".utf8)
    {
      scheme = url[..<colon]
      let hostStart = url.utf8.index(colon, offsetBy: 3)
      let slash = bytes[hostStart...].firstIndex(of: UInt8(ascii: "/")) ?? bytes.endIndex
      host = url[hostStart..<slash]
      path = url[slash...]
    } else {
      scheme = ""
      host = ""
      path = url[...]
    }
  }

  func value(of part: Placeholder.Part) -> String {
    switch part {
    case .scheme: String(scheme)
    case .host: String(host)
    case .origin: "\(scheme)://\(host)"
    case .path: String(path)
    case .bundle:
      String(path.utf8.lastIndex(of: UInt8(ascii: "/")).map { path[path.utf8.index(after: $0)...] } ?? path)
    }
  }
}

extension Placeholder {
  /// One token found in a string: its byte range and what it says.
  struct Token {
    /// Where the token starts and ends (the braces included), in UTF-8 offsets.
    var range: Range<Int>
    /// The parsed placeholder, or why it is not one.
    var parsed: Result<Placeholder, ParseError>
  }

  /// Why a `{…}` token is not a placeholder, in one sentence that says what to write instead.
  struct ParseError: Error, Sendable, Hashable {
    /// One sentence.
    var message: String
  }

  /// The characters a placeholder token is made of; it starts with a lower-case letter, and `{…}` with anything else
  /// is literal text (JSON in a state value, `{|}`).
  static func isTokenByte(_ byte: UInt8) -> Bool {
    (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || byte == UInt8(ascii: "_") || byte == UInt8(ascii: ".")
      || byte == UInt8(ascii: "|") || byte == UInt8(ascii: "-")
  }

  /// Every `{…}` token in a string, in order.
  static func tokens(in string: String) -> [Token] {
    let bytes = Array(string.utf8)
    var tokens: [Token] = []
    var index = 0
    while index < bytes.count {
      guard bytes[index] == UInt8(ascii: "{") else {
        // Straight to the next brace: a template is mostly literal text.
        index =
          bytes.withUnsafeBufferPointer { Bytes.first(UInt8(ascii: "{"), in: $0, index..<bytes.count) }
          ?? bytes.count
        continue
      }
      var end = index + 1
      while end < bytes.count && isNearMissByte(bytes[end]) { end += 1 }
      if end < bytes.count, bytes[end] == UInt8(ascii: "}"), let parsed = parsed(bytes[(index + 1)..<end]) {
        tokens.append(Token(range: index..<(end + 1), parsed: parsed))
        index = end + 1
      } else {
        index += 1
      }
    }
    return tokens
  }

  /// What the inside of a `{…}` says: a placeholder, or why it is not one; `nil` when the braces are literal text.
  ///
  /// A `{…}` that is not a placeholder as written but reads as one once its case, spaces and separators are fixed is a
  /// near miss (`meant(by:)`), refused rather than sent as literal text.
  static func parsed(_ inner: ArraySlice<UInt8>) -> Result<Placeholder, ParseError>? {
    if let first = inner.first, (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(first), inner.allSatisfy(isTokenByte) {
      return plainName(inner).map { .success(Placeholder(name: $0, transforms: [])) }
        ?? PlaceholderCache.shared.parsed(String(decoding: inner, as: UTF8.self))
    }
    guard !inner.isEmpty, inner.count <= nearMissLimit else { return nil }
    let text = String(decoding: inner, as: UTF8.self)
    guard let meant = meant(by: text) else { return nil }
    return .failure(
      ParseError(
        message:
          "\"{\(text)}\" is not a placeholder (did you mean \"\(meant)\"?); placeholders are lower case with underscores and no spaces, e.g. \(Name.allCases.map { "{\($0.rawValue)}" }.joined(separator: ", "))"
      ))
  }

  /// What a template is made of, seen in one scan of its bytes.
  enum Shape {
    /// No `{`: the template is its own value.
    case literal
    /// Exactly one bare placeholder and nothing else, e.g. `{client_id}`.
    case plain(Name)
    /// Anything else with a `{`: tokens to find and splice.
    case tokens
  }

  /// The shape of a template, without copying its bytes or making tokens.
  static func shape(of template: String) -> Shape {
    var template = template
    return template.withUTF8 { bytes in
      guard let brace = Bytes.first(UInt8(ascii: "{"), in: bytes, 0..<bytes.count) else { return .literal }
      guard brace == 0, bytes.count > 2, bytes[bytes.count - 1] == UInt8(ascii: "}"),
        let name = plainName(UnsafeBufferPointer(rebasing: bytes[1..<(bytes.count - 1)]))
      else { return .tokens }
      return .plain(name)
    }
  }

  /// The name a token's inside spells when it is a bare name (`client_id`), the usual case, found without making a
  /// string or asking the cache; `nil` for anything else.
  static func plainName(_ inner: ArraySlice<UInt8>) -> Name? {
    inner.withUnsafeBufferPointer { plainName($0) }
  }

  /// `plainName` of bytes in place.
  static func plainName(_ inner: UnsafeBufferPointer<UInt8>) -> Name? {
    let name: Name
    switch inner.count {
    case 6: name = .scopes
    case 9: name = .clientID
    case 12: name = .redirectURI
    case 14: name = .universalLink
    case 18: name = .otherRedirectURI
    default: return nil
    }
    var spelled = name.rawValue
    return spelled.withUTF8 { Bytes.equal(inner, $0) } ? name : nil
  }

  /// Parses the inside of a token: `name`, `name.part`, then `|transform`s.
  static func parse(_ inner: String) -> Result<Placeholder, ParseError> {
    var pieces = inner.split(separator: "|", omittingEmptySubsequences: false).map(String.init)
    let head = pieces.removeFirst()
    let nameAndPart = head.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
    func hint(_ meant: String?) -> String { meant.map { " (did you mean \"\($0)\"?)" } ?? "" }
    guard let name = Name(rawValue: nameAndPart[0]) else {
      let names = Name.allCases.map { "{\($0.rawValue)}" }.joined(separator: ", ")
      return .failure(ParseError(message: "\"{\(inner)}\" is not a placeholder\(hint(meant(by: inner))); use \(names)"))
    }
    var part: Part?
    if nameAndPart.count == 2 {
      guard name == .redirectURI, let parsed = Part(rawValue: nameAndPart[1]) else {
        let parts = Part.allCases.map { "{redirect_uri.\($0.rawValue)}" }
        let closest =
          name == .redirectURI ? Spelling.closest(to: "{redirect_uri.\(nameAndPart[1])}", in: parts, maxEdits: 2) : nil
        return .failure(
          ParseError(
            message:
              "\"{\(inner)}\" names no part of a placeholder\(hint(closest)); the parts are \(parts.joined(separator: ", "))"
          ))
      }
      part = parsed
    }
    var transforms: [PlaceholderTransform] = []
    for piece in pieces {
      guard let transform = PlaceholderTransform(rawValue: piece) else {
        let known = PlaceholderTransform.allCases.map(\.rawValue)
        let closest = Spelling.closest(to: piece, in: known, maxEdits: 2).map { "|" + $0 }
        return .failure(
          ParseError(
            message:
              "\"|\(piece)\" in \"{\(inner)}\" is not a transform\(hint(closest)); use one of \(known.joined(separator: ", "))"
          ))
      }
      transforms.append(transform)
    }
    return .success(Placeholder(name: name, part: part, transforms: transforms))
  }

  /// The longest `{…}` read as a near miss of a placeholder; longer braces are literal text.
  static let nearMissLimit = 64

  /// The placeholder a `{…}` that is not one as written most likely means, once its case, spaces and separators are
  /// fixed: `{CLIENT_ID}`, `{clientId}`, `{client-id}` and `{ redirect_uri }` mean `{client_id}` and `{redirect_uri}`;
  /// `nil` when it reads as no placeholder (literal text such as `{A}` or `{"a":1}`).
  static func meant(by inner: String) -> String? {
    var pieces = inner.split(separator: "|", omittingEmptySubsequences: false).map(\.trimmingBlanks)
    let head = pieces.removeFirst()
    let nameAndPart = head.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false).map(\.trimmingBlanks)
    let written = words(nameAndPart[0]).joined(separator: "_")
    let names = Name.allCases.map(\.rawValue)
    guard let name = names.contains(written) ? written : Spelling.closest(to: written, in: names, maxEdits: 1) else {
      return nil
    }
    var meant = name
    if nameAndPart.count == 2 { meant += "." + words(nameAndPart[1]).joined() }
    for piece in pieces { meant += "|" + words(piece).joined(separator: "-") }
    // A near miss whose parts or transforms do not exist either: name the placeholder alone.
    guard case .success = parse(meant) else { return "{\(name)}" }
    return "{\(meant)}"
  }

  /// Whether a byte may appear in a near miss: ASCII letters and digits, `_ - . |` and blanks.
  static func isNearMissByte(_ byte: UInt8) -> Bool {
    isTokenByte(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
      || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: " ")
      || byte == UInt8(ascii: "\t")
  }

  /// A near miss's words, lower-cased: split at blanks, `_`, `-`, and where a lower-case letter or digit meets an
  /// upper-case one (`clientId`, `redirectURI`).
  private static func words(_ text: String) -> [String] {
    var words: [String] = []
    var current = ""
    var previousIsLowerOrDigit = false
    for character in text {
      if character == " " || character == "\t" || character == "_" || character == "-" {
        if !current.isEmpty { words.append(current) }
        current = ""
        previousIsLowerOrDigit = false
        continue
      }
      if character.isUppercase && previousIsLowerOrDigit && !current.isEmpty {
        words.append(current)
        current = ""
      }
      current += character.lowercased()
      previousIsLowerOrDigit = character.isLowercase || character.isNumber
    }
    if !current.isEmpty { words.append(current) }
    return words
  }
}

/// The placeholders parsed so far in this process, by their inside text: a corpus spells only a few dozen, and every
/// run of every vector renders them again, so each is parsed once.
final class PlaceholderCache: Sendable {
  /// The process's cache.
  static let shared = PlaceholderCache()

  private let cache = Locked<[String: Result<Placeholder, Placeholder.ParseError>]>([:])

  /// `Placeholder.parse(inner)`, parsed on first use; bounded, so generated text cannot grow it without end.
  func parsed(_ inner: String) -> Result<Placeholder, Placeholder.ParseError> {
    if let known = cache.withLock({ $0[inner] }) { return known }
    let result = Placeholder.parse(inner)
    cache.withLock { parsed in
      if parsed.count >= 4_096 { parsed.removeAll(keepingCapacity: true) }
      parsed[inner] = result
    }
    return result
  }
}
