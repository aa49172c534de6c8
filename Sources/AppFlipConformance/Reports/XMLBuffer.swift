import Foundation

/// UTF-8 bytes that XML is written into: text is copied as bytes, and escaped only when it holds a byte that needs it.
///
/// The one place XML escaping is spelled out (the JUnit writers use it): markup is escaped, and the
/// characters XML 1.0 cannot carry (controls other than tab, line feed and carriage return; U+FFFE and U+FFFF) are
/// shown as visible `\u{…}` text.
///
/// The bytes live in memory of its own, appended with `memcpy`: under `swift test` (a debug build) a generic
/// `Array.append(contentsOf:)` costs a metadata lookup per call, which made a harness's reports a visible share of
/// its run. A buffer is a reference: each writer makes its own.
final class XMLBuffer {
  // Unchecked: a debug build would otherwise call the runtime's exclusivity check on every access, a fifth of the
  // time spent rendering a report; a buffer is only ever used by the one writer that made it.
  @exclusivity(unchecked) private var base: UnsafeMutablePointer<UInt8>
  @exclusivity(unchecked) private var capacity: Int
  /// How many bytes were written.
  @exclusivity(unchecked) private(set) var count = 0

  /// An empty buffer with room for `capacity` bytes.
  init(capacity: Int = 0) {
    self.capacity = max(capacity, 64)
    base = UnsafeMutablePointer<UInt8>.allocate(capacity: self.capacity)
  }

  deinit { base.deallocate() }

  /// The bytes written so far, as data that shares them (no copy): the buffer is not written to afterwards.
  var data: Data {
    Data(bytesNoCopy: base, count: count, deallocator: .custom { _, _ in withExtendedLifetime(self) {} })
  }

  /// Appends `length` bytes from `source`.
  func append(_ source: UnsafePointer<UInt8>, count length: Int) {
    guard length > 0 else { return }
    let needed = count + length
    if needed > capacity {
      let grown = max(needed, capacity * 2)
      let larger = UnsafeMutablePointer<UInt8>.allocate(capacity: grown)
      memcpy(larger, base, count)
      base.deallocate()
      base = larger
      capacity = grown
    }
    memcpy(base + count, source, length)
    count = needed
  }

  /// Appends bytes as they are.
  func append(_ source: UnsafeBufferPointer<UInt8>) {
    guard let start = source.baseAddress else { return }
    append(start, count: source.count)
  }

  /// Appends another buffer's bytes.
  func append(_ other: XMLBuffer) {
    append(other.base, count: other.count)
  }

  /// Appends one byte.
  func append(_ byte: UInt8) {
    var byte = byte
    append(&byte, count: 1)
  }

  /// Appends text as it is: markup the writer spells itself, never data.
  func raw(_ text: String) {
    var text = text
    text.withUTF8 { append($0) }
  }

  /// Appends markup spelled in the source: no string is made on the way.
  func markup(_ text: StaticString) {
    append(text.utf8Start, count: text.utf8CodeUnitCount)
  }

  /// Appends bytes as they are.
  func raw(_ other: [UInt8]) {
    other.withUnsafeBufferPointer { append($0) }
  }

  /// Appends seconds with three decimals, never negative (the junit-10 schema's SUREFIRE_TIME).
  func seconds(_ value: Double) {
    let clamped = value.isNaN ? 0 : max(0, value)
    guard clamped < 1e12 else {
      raw(String(format: "%.3f", clamped))
      return
    }
    let milliseconds = Int((clamped * 1_000).rounded())
    raw(String(milliseconds / 1_000))
    append(UInt8(ascii: "."))
    let fraction = milliseconds % 1_000
    append(UInt8(ascii: "0") + UInt8(fraction / 100))
    append(UInt8(ascii: "0") + UInt8(fraction / 10 % 10))
    append(UInt8(ascii: "0") + UInt8(fraction % 10))
  }

  /// Appends text escaped for element content.
  func content(_ text: String) { escape(text, attribute: false) }

  /// Appends text escaped for a double-quoted attribute; line breaks and tabs survive as character references.
  func attribute(_ text: String) { escape(text, attribute: true) }

  private func escape(_ text: String, attribute: Bool) {
    var text = text
    text.withUTF8 { utf8 in
      guard let base = utf8.baseAddress else { return }
      // Plain pointer and table reads: under `swift test` (a debug build) every generic call in this loop is a real
      // call per byte, and a report is mostly bytes that need nothing.
      let table = attribute ? Self.attributeTable : Self.contentTable
      let count = utf8.count
      var index = 0
      var copied = 0
      while index < count {
        guard table[Int(base[index])] != 0 else {
          index &+= 1
          continue
        }
        // Runs of bytes that need nothing are copied whole.
        append(base + copied, count: index - copied)
        index = escape(utf8, at: index, attribute: attribute)
        copied = index
      }
      append(base + copied, count: count - copied)
    }
  }

  /// Whether each byte may need escaping in content: markup, a control byte other than tab and line feed, or the lead
  /// byte of U+FFFx.
  nonisolated(unsafe) private static let contentTable = table(attribute: false)
  /// Whether each byte may need escaping in an attribute: as in content, plus every control byte and the quote.
  nonisolated(unsafe) private static let attributeTable = table(attribute: true)

  /// A 256-entry table, never freed: non-zero where a byte may need escaping.
  private static func table(attribute: Bool) -> UnsafePointer<UInt8> {
    let table = UnsafeMutablePointer<UInt8>.allocate(capacity: 256)
    for byte in 0..<256 {
      let needsWork =
        byte < 0x20
        ? attribute || (byte != 0x09 && byte != 0x0A)
        : byte == 0x26 || byte == 0x3C || byte == 0x3E
          || (attribute && byte == 0x22) || byte == 0xEF
      table[byte] = needsWork ? 1 : 0
    }
    return UnsafePointer(table)
  }

  /// Appends the escaped form of the byte at `index` (and of the character it starts); the index after it.
  private func escape(_ utf8: UnsafeBufferPointer<UInt8>, at index: Int, attribute: Bool) -> Int {
    let byte = utf8[index]
    switch byte {
    case UInt8(ascii: "&"): markup("&amp;")
    case UInt8(ascii: "<"): markup("&lt;")
    case UInt8(ascii: ">"): markup("&gt;")
    case UInt8(ascii: "\""): markup("&quot;")
    case UInt8(ascii: "\n"): markup("&#10;")
    case UInt8(ascii: "\r"): markup("&#13;")
    case UInt8(ascii: "\t"): markup("&#9;")
    case 0xEF:
      // XML 1.0 §2.2 Char leaves out U+FFFE and U+FFFF (EF BF BE, EF BF BF); other U+Exxx–U+FFFD pass.
      if index + 2 < utf8.count, utf8[index + 1] == 0xBF, utf8[index + 2] == 0xBE || utf8[index + 2] == 0xBF {
        raw(utf8[index + 2] == 0xBE ? "\\u{FFFE}" : "\\u{FFFF}")
        return index + 3
      }
      append(byte)
    default:
      // Any other byte below 0x20, which XML 1.0 cannot carry.
      raw("\\u{\(String(byte, radix: 16, uppercase: true))}")
    }
    return index + 1
  }

  /// The bytes as a string (they are UTF-8 by construction).
  var string: String { String(decoding: UnsafeBufferPointer(start: base, count: count), as: UTF8.self) }
}
