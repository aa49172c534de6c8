import AppFlip

/// How each edit changes a value.
extension PlaceholderTransform {
  /// The edited value under an allow-list (which only `extended` reads); `nil` when the edit cannot apply.
  func apply(_ value: String, allowList: [String]) -> String? {
    // Made only for the edits that read scalars; the encodings read the UTF-8 in place.
    lazy var scalars = Array(value.unicodeScalars)
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
      return string(scalars.lazy.map { isLower($0) ? shifted($0, by: -32) : $0 })
    case .lower:
      return string(scalars.lazy.map { isUpper($0) ? shifted($0, by: 32) : $0 })
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
      return string(scalars.lazy.map { isLower($0) || isUpper($0) || isDigit($0) ? shifted($0, by: 0xFEE0) : $0 })
    case .fullwidthDigits:
      return string(scalars.lazy.map { isDigit($0) ? shifted($0, by: 0xFEE0) : $0 })
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
      return string(scalars.lazy.map { $0 == "/" ? "\u{FF0F}" : $0 })
    case .escapeDot:
      return escapeFirst(in: scalars) { $0 == "." }
    case .escapeDash:
      return escapeFirst(in: scalars) { $0 == "-" }
    case .escapeLetter:
      return escapeFirst(in: scalars) { isLower($0) || isUpper($0) }
    case .escapeLastSlash:
      guard let index = scalars.lastIndex(of: "/") else { return nil }
      return string(scalars[..<index]) + "%2F" + string(scalars[(index + 1)...])
    case .escapeHexCase:
      var bytes = Array(value.utf8)
      for index in bytes.indices.dropLast(2) where bytes[index] == UInt8(ascii: "%") {
        let digits = (index + 1)...(index + 2)
        guard digits.allSatisfy({ Hex.value(bytes[$0]) != nil }), digits.contains(where: { bytes[$0] > 0x40 }) else {
          continue
        }
        for digit in digits where bytes[digit] > 0x40 { bytes[digit] ^= 0x20 }
        return String(decoding: bytes, as: UTF8.self)
      }
      return nil
    case .extended:
      // The suffixes one allowed URL adds to another: the partner's own list first, then Google's.
      var suffixes: [Substring] = []
      for list in [allowList, RedirectAllowList.google.urls] {
        for shorter in list {
          for longer in list where longer.utf8.count > shorter.utf8.count && longer.utf8.starts(with: shorter.utf8) {
            let suffix = longer.utf8.dropFirst(shorter.utf8.count)
            if !suffixes.contains(where: { $0.utf8.elementsEqual(suffix) }) { suffixes.append(Substring(suffix)) }
          }
        }
      }
      // Neither allowed nor one of Google's twelve, which a partner that leaves it out may also refuse (AF-RU-5).
      return suffixes.lazy.map { value + $0 }.first { extended in
        !(allowList + RedirectAllowList.google.urls).contains { Bytes.equal($0, extended) }
      }
    case .encoded:
      return PercentEncoding.encode(value)
    case .encodedLower:
      return LinkBytes.encoded(value, lowerHex: true)
    case .escaped:
      return LinkBytes.encoded(value, keeping: LinkBytes.noBytes)
    case .escapedLower:
      return LinkBytes.encoded(value, keeping: LinkBytes.noBytes, lowerHex: true)
    case .punycode:
      let label = scalars.prefix { $0 != "." }
      guard let lookAlike = Self.homoglyph.apply(string(Array(label)), allowList: allowList) else { return nil }
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

/// The first scalar that matches written as its `%XX` escape (an ASCII scalar).
private func escapeFirst(in scalars: [Unicode.Scalar], where match: (Unicode.Scalar) -> Bool) -> String? {
  guard let index = scalars.firstIndex(where: { $0.isASCII && match($0) }) else { return nil }
  return string(scalars[..<index]) + LinkBytes.encoded(String(scalars[index]), keeping: LinkBytes.noBytes)
    + string(scalars[(index + 1)...])
}

/// The string of `scalars`.
private func string(_ scalars: some Sequence<Unicode.Scalar>) -> String {
  String(String.UnicodeScalarView(scalars))
}

private func isLower(_ scalar: Unicode.Scalar) -> Bool { ("a"..."z").contains(scalar) }
private func isUpper(_ scalar: Unicode.Scalar) -> Bool { ("A"..."Z").contains(scalar) }
private func isDigit(_ scalar: Unicode.Scalar) -> Bool { ("0"..."9").contains(scalar) }
private func shifted(_ scalar: Unicode.Scalar, by offset: Int) -> Unicode.Scalar {
  Unicode.Scalar(UInt32(Int(scalar.value) + offset)) ?? scalar
}
