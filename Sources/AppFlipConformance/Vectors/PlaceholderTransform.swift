import AppFlip

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
    case .escapeDot, .escapeDash, .escapeLetter, .escapeLastSlash: true
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
    case .encoded, .encodedLower: "a character to encode"
    case .escaped, .escapedLower: "a character"
    }
  }

  /// The edited value; `nil` when the edit cannot apply.
  func apply(_ value: String) -> String? {
    var scalars = Array(value.unicodeScalars)
    func replaceFirst(where match: (Unicode.Scalar) -> Unicode.Scalar?) -> String? {
      for (index, scalar) in scalars.enumerated() {
        if let replacement = match(scalar) {
          scalars[index] = replacement
          return string(scalars)
        }
      }
      return nil
    }
    switch self {
    case .upper:
      return string(scalars.map { isLower($0) ? shifted($0, by: -32) : $0 })
    case .lower:
      return string(scalars.map { isUpper($0) ? shifted($0, by: 32) : $0 })
    case .upperFirst:
      return replaceFirst { isLower($0) ? shifted($0, by: -32) : nil }
    case .mixedCase:
      var atStart = true
      for (index, scalar) in scalars.enumerated() {
        if atStart && isLower(scalar) { scalars[index] = shifted(scalar, by: -32) }
        atStart = scalar == "." || scalar == "-" || scalar == "/"
      }
      return string(scalars)
    case .dropLast:
      guard scalars.count >= 2 else { return nil }
      return string(scalars.dropLast())
    case .homoglyph:
      return replaceFirst { Self.cyrillic[$0] }
    case .dotlessI:
      return replaceFirst { $0 == "i" ? "\u{0131}" : nil }
    case .fullwidthDot:
      return replaceFirst { $0 == "." ? "\u{FF0E}" : nil }
    case .fullwidth:
      let mapped = scalars.map { isLower($0) || isUpper($0) || isDigit($0) ? shifted($0, by: 0xFEE0) : $0 }
      return string(mapped)
    case .fullwidthDigits:
      return string(scalars.map { isDigit($0) ? shifted($0, by: 0xFEE0) : $0 })
    case .zeroWidth:
      guard scalars.count >= 2 else { return nil }
      scalars.insert("\u{200B}", at: 1)
      return string(scalars)
    case .longS:
      guard let index = scalars.lastIndex(of: "s") else { return nil }
      scalars[index] = "\u{017F}"
      return string(scalars)
    case .kelvin:
      return replaceFirst { $0 == "K" || $0 == "k" ? "\u{212A}" : nil }
    case .acute:
      return replaceFirst { Self.acuteForms[$0] }
    case .combiningAcute:
      guard let index = scalars.firstIndex(where: { Self.acuteForms[$0] != nil }) else { return nil }
      scalars.insert("\u{0301}", at: index + 1)
      return string(scalars)
    case .ligature:
      for index in scalars.indices.dropLast() where scalars[index] == "f" {
        let ligature: Unicode.Scalar? =
          switch scalars[index + 1] {
          case "l": "\u{FB02}"
          case "i": "\u{FB01}"
          default: nil
          }
        if let ligature {
          scalars.replaceSubrange(index...(index + 1), with: [ligature])
          return string(scalars)
        }
      }
      return nil
    case .parent:
      guard let dot = scalars.firstIndex(of: "."), dot > 0, dot < scalars.count - 1 else { return nil }
      return string(scalars[(dot + 1)...])
    case .dotAsDash:
      return replaceFirst { $0 == "." ? "-" : nil }
    case .fullwidthSlashes:
      return string(scalars.map { $0 == "/" ? "\u{FF0F}" : $0 })
    case .escapeDot:
      return escapeFirst(in: scalars) { $0 == "." }
    case .escapeDash:
      return escapeFirst(in: scalars) { $0 == "-" }
    case .escapeLetter:
      return escapeFirst(in: scalars) { isLower($0) || isUpper($0) }
    case .escapeLastSlash:
      guard let index = scalars.lastIndex(of: "/") else { return nil }
      return string(scalars[..<index]) + "%2F" + string(scalars[(index + 1)...])
    case .encoded:
      return PercentEncoding.encode(value)
    case .encodedLower:
      return lowerHex(PercentEncoding.encode(value))
    case .escaped:
      return value.utf8.map { "%" + hex($0) }.joined()
    case .escapedLower:
      return lowerHex(value.utf8.map { "%" + hex($0) }.joined())
    case .punycode:
      let label = scalars.prefix { $0 != "." }
      guard let lookAlike = PlaceholderTransform.homoglyph.apply(string(Array(label))) else { return nil }
      return "xn--" + Punycode.encode(Array(lookAlike.unicodeScalars)) + string(Array(scalars.dropFirst(label.count)))
    }
  }

  /// Latin letters and their Cyrillic look-alikes.
  static let cyrillic: [Unicode.Scalar: Unicode.Scalar] = [
    "a": "\u{0430}", "c": "\u{0441}", "e": "\u{0435}", "o": "\u{043E}", "p": "\u{0440}", "x": "\u{0445}",
    "y": "\u{0443}",
  ]

  /// Lower-case vowels and their precomposed acute forms.
  static let acuteForms: [Unicode.Scalar: Unicode.Scalar] = [
    "a": "\u{00E1}", "e": "\u{00E9}", "i": "\u{00ED}", "o": "\u{00F3}", "u": "\u{00FA}",
  ]
}

private func hex(_ byte: UInt8) -> String {
  let digits = Array("0123456789ABCDEF")
  return String([digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]])
}

/// Lower-cases the hex digits of every `%XX` escape.
private func lowerHex(_ encoded: String) -> String {
  var bytes = Array(encoded.utf8)
  var index = 0
  while index < bytes.count {
    if bytes[index] == UInt8(ascii: "%") && index + 2 < bytes.count {
      for offset in 1...2 where (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(bytes[index + offset]) {
        bytes[index + offset] += 32
      }
      index += 3
    } else {
      index += 1
    }
  }
  return String(decoding: bytes, as: UTF8.self)
}

/// The first scalar that matches written as its `%XX` escape (an ASCII scalar).
private func escapeFirst(in scalars: [Unicode.Scalar], where match: (Unicode.Scalar) -> Bool) -> String? {
  guard let index = scalars.firstIndex(where: { $0.isASCII && match($0) }) else { return nil }
  return string(scalars[..<index]) + "%" + hex(UInt8(scalars[index].value)) + string(scalars[(index + 1)...])
}

private func string(_ scalars: some Sequence<Unicode.Scalar>) -> String {
  var result = String.UnicodeScalarView()
  result.append(contentsOf: scalars)
  return String(result)
}

private func isLower(_ scalar: Unicode.Scalar) -> Bool { ("a"..."z").contains(scalar) }
private func isUpper(_ scalar: Unicode.Scalar) -> Bool { ("A"..."Z").contains(scalar) }
private func isDigit(_ scalar: Unicode.Scalar) -> Bool { ("0"..."9").contains(scalar) }
private func shifted(_ scalar: Unicode.Scalar, by offset: Int) -> Unicode.Scalar {
  Unicode.Scalar(UInt32(Int(scalar.value) + offset)) ?? scalar
}

/// RFC 3492 Punycode, encoding only: the part of an IDNA A-label after `xn--`.
enum Punycode {
  static func encode(_ input: [Unicode.Scalar]) -> String {
    let base = 36
    let tMin = 1
    let tMax = 26
    let skew = 38
    let damp = 700
    var n = 128
    var delta = 0
    var bias = 72
    var output = input.filter(\.isASCII).map { Character($0) }
    let basicCount = output.count
    var handled = basicCount
    if basicCount > 0 { output.append("-") }
    func digit(_ value: Int) -> Character {
      Character(Unicode.Scalar(UInt8(value < 26 ? value + 97 : value + 22)))
    }
    func adapt(_ delta: Int, _ count: Int, _ first: Bool) -> Int {
      var delta = first ? delta / damp : delta / 2
      delta += delta / count
      var k = 0
      while delta > ((base - tMin) * tMax) / 2 {
        delta /= base - tMin
        k += base
      }
      return k + (base - tMin + 1) * delta / (delta + skew)
    }
    while handled < input.count {
      let m = input.map { Int($0.value) }.filter { $0 >= n }.min() ?? n
      delta += (m - n) * (handled + 1)
      n = m
      for scalar in input {
        let c = Int(scalar.value)
        if c < n { delta += 1 }
        if c == n {
          var q = delta
          var k = base
          while true {
            let t = k <= bias ? tMin : (k >= bias + tMax ? tMax : k - bias)
            if q < t { break }
            output.append(digit(t + (q - t) % (base - t)))
            q = (q - t) / (base - t)
            k += base
          }
          output.append(digit(q))
          bias = adapt(delta, handled + 1, handled == basicCount)
          delta = 0
          handled += 1
        }
      }
      delta += 1
      n += 1
    }
    return String(output)
  }
}
