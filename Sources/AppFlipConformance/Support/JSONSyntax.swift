import Foundation

/// The package's one hand-made JSON reader (RFC 8259): a strict scan of files before decoding, which refuses what
/// Foundation's decoders let through or report badly — a duplicate key (RFC 8259 §4: names SHOULD be unique; a decoder
/// silently keeps one), a trailing comma, nesting deeper than `maxDepth` — and gives every syntax error its line and
/// column; and the reader of the subprocess protocol's ordinary lines (`value(of:)`), because `JSONDecoder` was half of
/// the harness's time per step over `--exec`.
enum JSONSyntax {
  /// The deepest nesting of arrays and objects a file may have.
  static let maxDepth = 512

  /// The first problem in these bytes, or `nil` when they are strict JSON nested at most `maxDepth` deep.
  static func problem(in data: Data, maxDepth: Int = maxDepth) -> Problem? {
    data.withUnsafeBytes { buffer in
      var scanner = Scanner(bytes: buffer.bindMemory(to: UInt8.self), maxDepth: maxDepth)
      do {
        try scanner.document()
        return nil
      } catch {
        return error as? Problem
      }
    }
  }

  /// The value that strict JSON bytes nested at most `maxDepth` deep hold; nil for any other bytes, which
  /// `problem(in:maxDepth:)` explains.
  static func value(of bytes: [UInt8], maxDepth: Int = maxDepth) -> Value? {
    bytes.withUnsafeBufferPointer { buffer in
      var scanner = Scanner(bytes: buffer, maxDepth: maxDepth, keep: true)
      return try? scanner.document()
    }
  }

  /// A JSON value as `value(of:)` reads it and `line(_:)` writes it: a number as written, an object's fields in order,
  /// each name once. Not `indirect`: arrays keep their items on the heap already, and a boxed case would cost an
  /// allocation per value.
  enum Value {
    case null
    case bool(Bool)
    case number(String)
    case string(String)
    case array([Value])
    case object([(name: String, value: Value)])

    /// The value of this object's field `name`; nil when it has none or is no object. A protocol message has a
    /// handful of fields, so a search in order is faster than hashing every name.
    subscript(_ name: String) -> Value? {
      guard case .object(let fields) = self else { return nil }
      return fields.first { $0.name == name }?.value
    }
  }
}

extension JSONSyntax {
  /// Where a top-level field's array and each of its elements are in a file's bytes.
  struct ArrayRanges {
    var array: Range<Int>
    var elements: [Range<Int>]
  }

  /// The ranges of the array the top-level object's field `key` holds, for bytes that are strict JSON; `nil` when the
  /// top level is no object or the field no array.
  static func arrayRanges(of key: String, in data: Data) -> ArrayRanges? {
    data.withUnsafeBytes { buffer in
      var scanner = Scanner(bytes: buffer.bindMemory(to: UInt8.self))
      return try? scanner.arrayRanges(of: key)
    }
  }

  /// Why bytes are not acceptable JSON, with where.
  struct Problem: Error, Sendable, Hashable, CustomStringConvertible {
    /// 1-based line.
    var line: Int
    /// 1-based column, in characters.
    var column: Int
    /// What is wrong there, in words.
    var reason: String
    /// The path of the duplicated field (`vectors[2].expect.reply.state`), for a duplicate key only.
    var duplicateField: String?

    /// `line L, column C: reason`.
    var description: String { "line \(line), column \(column): \(reason)" }
  }
}
