import Foundation

/// A strict scan of JSON bytes before decoding (RFC 8259): refuses what Foundation's decoders let through or report
/// badly — a duplicate key (RFC 8259 §4: names SHOULD be unique; a decoder silently keeps one), a trailing comma,
/// nesting deeper than `maxDepth` — and gives every syntax error its line and column.
enum JSONSyntax {
  /// The deepest nesting of arrays and objects a file may have.
  static let maxDepth = 512

  /// The first problem in these bytes, or `nil` when they are strict JSON.
  static func problem(in data: Data) -> Problem? {
    data.withUnsafeBytes { buffer in
      var scanner = Scanner(bytes: buffer.bindMemory(to: UInt8.self))
      do {
        try scanner.document()
        return nil
      } catch {
        return error as? Problem
      }
    }
  }
}
