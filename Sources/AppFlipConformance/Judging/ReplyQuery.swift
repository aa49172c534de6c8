import AppFlip

/// A reply URL split exactly as `URLQuery` splits it (base, `&`-separated parameters with empty pieces dropped, each
/// name and value percent-decoded, the fragment after the first `#`), read from the string's contiguous UTF-8 in one
/// pass: the judge reads every reply, and `URLQuery` walks `String.UTF8View` index by index.
struct ReplyQuery {
  /// One parameter: where its pieces are, its decoded name, and what its value holds; the value is decoded only when
  /// something asks for its bytes (a finding), and compared or checked byte by byte as it decodes otherwise.
  struct Parameter {
    /// The whole `name=value` piece, as UTF-8 offsets into the URL.
    var raw: Range<Int>
    /// The name as written.
    var rawName: Range<Int>
    /// The value as written (empty without `=`).
    var rawValue: Range<Int>
    /// The decoded name; `nil` when an escape is broken or it is not UTF-8.
    var name: String?
    /// Whether the value has a `%`: an escape to decode, or a broken one.
    var hasPercent: Bool
    /// Whether the value has a literal `+`, which RFC 3986 and form decoding read differently (AF-RE-6).
    var hasPlus: Bool
  }

  /// The URL read.
  let url: String
  /// Everything before the `?` (or the fragment), as UTF-8 offsets.
  var base: Range<Int> = 0..<0
  /// The text after the first `#`, if there is one, as UTF-8 offsets.
  var fragment: Range<Int>?
  /// The parameters, in order.
  var parameters: [Parameter] = []

  /// Splits `url`.
  init(_ url: String) {
    self.url = url
    var copy = url
    copy.withUTF8 { bytes in
      let hash = ByteScan.first(UInt8(ascii: "#"), in: bytes, 0..<bytes.count)
      let end = hash ?? bytes.count
      if let hash { fragment = (hash + 1)..<bytes.count }
      guard let question = ByteScan.first(UInt8(ascii: "?"), in: bytes, 0..<end) else {
        base = 0..<end
        return
      }
      base = 0..<question
      parameters.reserveCapacity(8)
      var start = question + 1
      while start <= end {
        let ampersand = ByteScan.first(UInt8(ascii: "&"), in: bytes, start..<end) ?? end
        if start < ampersand { parameters.append(Self.parameter(bytes, start..<ampersand)) }
        start = ampersand + 1
      }
    }
  }

  /// Whether the bytes at `range` are exactly `other`'s UTF-8.
  func bytes(_ range: Range<Int>, equal other: String) -> Bool {
    guard range.count == other.utf8.count else { return false }
    var url = url
    var other = other
    return url.withUTF8 { bytes in
      other.withUTF8 { ByteScan.equal(UnsafeBufferPointer(rebasing: bytes[range]), $0) }
    }
  }

  /// The text at `range`.
  func text(_ range: Range<Int>) -> Substring {
    let utf8 = url.utf8
    let lower = utf8.index(utf8.startIndex, offsetBy: range.lowerBound)
    return url[lower..<utf8.index(lower, offsetBy: range.count)]
  }

  /// The value of `parameter`, RFC 3986-decoded; `nil` when an escape is broken.
  func value(_ parameter: Parameter) -> [UInt8]? {
    replyValue(parameter).rfc3986
  }

  /// The value of `parameter`, form-decoded (`+` as a space); `nil` when an escape is broken.
  func form(_ parameter: Parameter) -> [UInt8]? {
    replyValue(parameter).form
  }

  /// Whether the two decodings of `parameter`'s value read different bytes (AF-RE-6): it has a literal `+`, which
  /// one reads as `+` and the other as a space, and it decodes.
  func isAmbiguous(_ parameter: Parameter) -> Bool {
    parameter.hasPlus && replyValue(parameter).decodes
  }

  /// Whether `parameter`'s value is empty or does not decode.
  func isEmptyOrBroken(_ parameter: Parameter) -> Bool {
    parameter.rawValue.isEmpty || (parameter.hasPercent && !replyValue(parameter).decodes)
  }

  /// `parameter`'s value as the judge compares and shows it.
  func replyValue(_ parameter: Parameter) -> ReplyValue {
    ReplyValue(raw: text(parameter.rawValue), hasPercent: parameter.hasPercent, hasPlus: parameter.hasPlus)
  }

  private static func parameter(_ bytes: UnsafeBufferPointer<UInt8>, _ raw: Range<Int>) -> Parameter {
    let equals = ByteScan.first(UInt8(ascii: "="), in: bytes, raw)
    let rawName = raw.lowerBound..<(equals ?? raw.upperBound)
    let rawValue = equals.map { ($0 + 1)..<raw.upperBound } ?? raw.upperBound..<raw.upperBound
    // A name without escapes is its bytes, which are UTF-8: they lie between ASCII separators of a string.
    let name =
      ByteScan.contains(UInt8(ascii: "%"), in: bytes, rawName)
      ? decode(bytes, rawName, plusAsSpace: false).flatMap(Bytes.utf8String)
      : String(decoding: UnsafeBufferPointer(rebasing: bytes[rawName]), as: UTF8.self)
    return Parameter(
      raw: raw, rawName: rawName, rawValue: rawValue, name: name,
      hasPercent: ByteScan.contains(UInt8(ascii: "%"), in: bytes, rawValue),
      hasPlus: ByteScan.contains(UInt8(ascii: "+"), in: bytes, rawValue))
  }

  /// Hands each byte of `bytes[range]`, decoded once (`%XX` as its byte, `+` as a space when `plusAsSpace`), to
  /// `body` until it returns false; false when it did, or when an escape is broken.
  @inline(__always)
  static func forEachDecoded(
    _ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, plusAsSpace: Bool, _ body: (UInt8) -> Bool
  ) -> Bool {
    var index = range.lowerBound
    while index < range.upperBound {
      let byte = bytes[index]
      if byte == UInt8(ascii: "%") {
        guard index + 2 < range.upperBound, let high = Hex.value(bytes[index + 1]),
          let low = Hex.value(bytes[index + 2]), body(high << 4 | low)
        else { return false }
        index += 3
      } else {
        guard body(plusAsSpace && byte == UInt8(ascii: "+") ? UInt8(ascii: " ") : byte) else { return false }
        index += 1
      }
    }
    return true
  }

  /// `PercentEncoding.decode` over a range of contiguous bytes: each `%XX` once; `nil` when an escape is broken.
  static func decode(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, plusAsSpace: Bool) -> [UInt8]? {
    // Only a finding or an escaped name asks for the bytes: the judge's checks read them as they decode.
    var out: [UInt8] = []
    out.reserveCapacity(range.count)
    let whole = forEachDecoded(bytes, range, plusAsSpace: plusAsSpace) {
      out.append($0)
      return true
    }
    return whole ? out : nil
  }

}
