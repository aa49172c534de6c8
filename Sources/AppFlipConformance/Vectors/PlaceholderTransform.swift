/// An edit that turns a configured value into a near-miss of it, written `|name` after a placeholder.
///
/// Each edit changes the value or does not apply; the vector is then skipped with the reason (`needs`).
enum PlaceholderTransform: String, Sendable, Hashable, CaseIterable {
  /// Every ASCII letter upper-cased.
  case upper
  /// Every ASCII letter lower-cased.
  case lower
  /// The first lower-case ASCII letter upper-cased.
  case upperFirst = "upper-first"
  /// The first letter after each `.`, `-` or `/` (and the first of all) upper-cased: `Oauth-Redirect.Googleusercontent.Com`.
  case mixedCase = "mixed-case"
  /// The last character removed: a proper prefix.
  case dropLast = "drop-last"
  /// The first of `a c e o p x y` replaced by its Cyrillic look-alike (UTS #39 confusables).
  case homoglyph
  /// The first `i` replaced by U+0131 LATIN SMALL LETTER DOTLESS I, which some case-folding maps back to `i`.
  case dotlessI = "dotless-i"
  /// The first `.` replaced by U+FF0E FULLWIDTH FULL STOP, which IDNA maps to `.`.
  case fullwidthDot = "fullwidth-dot"
  /// Every ASCII letter and digit replaced by its fullwidth form, which NFKC folds back.
  case fullwidth
  /// Every ASCII digit replaced by its fullwidth form, which NFKC folds back.
  case fullwidthDigits = "fullwidth-digits"
  /// U+200B ZERO WIDTH SPACE inserted after the first character.
  case zeroWidth = "zero-width"
  /// The last `s` replaced by U+017F LATIN SMALL LETTER LONG S, which case folding maps to `s`.
  case longS = "long-s"
  /// The first `K` or `k` replaced by U+212A KELVIN SIGN, canonically equivalent to `K` (Swift `==` treats them equal).
  case kelvin
  /// The first of `a e i o u` replaced by its precomposed acute form (NFC).
  case acute
  /// U+0301 COMBINING ACUTE ACCENT inserted after the first of `a e i o u` (NFD).
  case combiningAcute = "combining-acute"
  /// The first `fl` or `fi` replaced by its ligature (U+FB02, U+FB01), which NFKC folds back.
  case ligature
  /// The first label made a homoglyph and written as an IDNA A-label (`xn--…`, RFC 3492 Punycode).
  case punycode
  /// The first label and its dot removed: the parent domain.
  case parent
  /// The first `.` replaced by `-`, as a regex `.` wildcard would allow.
  case dotAsDash = "dot-as-dash"
  /// Every `/` replaced by U+FF0F FULLWIDTH SOLIDUS.
  case fullwidthSlashes = "fullwidth-slashes"
  /// The first `.` written `%2E`.
  case escapeDot = "escape-dot"
  /// The first `-` written `%2D`.
  case escapeDash = "escape-dash"
  /// The first ASCII letter written as its `%XX` escape.
  case escapeLetter = "escape-letter"
  /// The last `/` written `%2F`.
  case escapeLastSlash = "escape-last-slash"
  /// The first `%XX` escape whose hex digits hold a letter, with their case swapped (`%2B` as `%2b`): RFC 3986 §2.1
  /// calls the two equivalent, but a redirect URI is compared as an exact string (RFC 9700 §2.1).
  case escapeHexCase = "escape-hex-case"
  /// The whole value extended by a suffix by which one allowed URL extends another (`.dev`), or else by one of
  /// Google's (`.dev`, `.enterprise`), so that the result is neither allowed nor one of Google's twelve URLs (which
  /// AF-RU-5 lets a partner refuse): a check that admits every allowed URL's variants fails.
  case extended
  /// Percent-encoded once, every byte but the unreserved ones, upper-case hex (RFC 3986 §2.1).
  case encoded
  /// Percent-encoded once like `encoded`, with lower-case hex digits (RFC 3986 §2.1: equivalent).
  case encodedLower = "encoded-lower"
  /// Every byte percent-encoded, upper-case hex.
  case escaped
  /// Every byte percent-encoded, lower-case hex.
  case escapedLower = "escaped-lower"

  /// Whether the edit writes `%XX` escapes (which a raw link would decode when its part is not encoded again).
  var writesEscapes: Bool {
    switch self {
    case .escapeDot, .escapeDash, .escapeLetter, .escapeLastSlash, .escapeHexCase: true
    default: isEncoding
    }
  }

  /// Whether the edit percent-encodes, so a raw link takes its result as it is instead of encoding it again.
  var isEncoding: Bool {
    switch self {
    case .encoded, .encodedLower, .escaped, .escapedLower: true
    default: false
    }
  }

  /// What the value must contain for the edit to change it.
  var needs: String {
    switch self {
    case .upper, .upperFirst, .mixedCase: "a lower-case letter"
    case .lower: "an upper-case letter"
    case .dropLast, .zeroWidth: "at least two characters"
    case .homoglyph, .punycode: "a letter with a Cyrillic look-alike (a c e o p x y)"
    case .dotlessI: "an \"i\""
    case .fullwidthDot: "a \".\""
    case .fullwidth: "a letter or digit"
    case .fullwidthDigits: "a digit"
    case .longS: "an \"s\""
    case .kelvin: "a \"K\" or \"k\""
    case .acute, .combiningAcute: "a lower-case vowel"
    case .ligature: "\"fl\" or \"fi\""
    case .parent: "a dot between two labels"
    case .dotAsDash, .escapeDot: "a \".\""
    case .fullwidthSlashes: "a \"/\""
    case .escapeDash: "a \"-\""
    case .escapeLetter: "a letter"
    case .escapeLastSlash: "a \"/\""
    case .escapeHexCase: "a %XX escape with a hex letter"
    case .extended: "a suffix that makes neither an allowed URL nor one of Google's"
    case .encoded, .encodedLower: "a character to encode"
    case .escaped, .escapedLower: "a character"
    }
  }
}
