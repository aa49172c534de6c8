import Foundation

/// What a vector means, as a stable hash: its level, configuration, steps (incoming, outcome, expectation) and token
/// requests.
///
/// Descriptions, spec references, rules, tags and flags can improve without changing what a vector asserts.
package enum Fingerprint {
  /// The fingerprint of a vector, e.g. `fnv1a64:8c3f…`.
  package static func of(_ vector: Vector) -> String {
    struct Meaning: Encodable {
      var level: Level
      var configuration: Vector.ConfigurationOverride?
      var steps: [Vector.Step]
      var interleaved: Bool?
      var exchanges: [Vector.Exchange]?
    }
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    let data =
      (try? encoder.encode(
        Meaning(
          level: vector.level, configuration: vector.configuration, steps: vector.steps,
          interleaved: vector.interleaved ? true : nil, exchanges: vector.exchanges.isEmpty ? nil : vector.exchanges)))
      ?? Data()
    return digest(ofHash: FNV1a.hash(Array(data)))
  }
}

extension Fingerprint {
  /// The digest of a selection of vectors, e.g. `fnv1a64:8c3f…`: the FNV-1a hash of each vector's id and fingerprint,
  /// a line each in selection order, so two reports ran the same vectors exactly when their digests agree.
  package static func digest(of vectors: [LoadedVector]) -> String {
    digest(ofHash: FNV1a.hash(lines(of: vectors)))
  }

  /// The lines of these vectors in a selection's digest, a JSON encoding each: a run makes them file by file as its
  /// vector files load, beside the run.
  package static func lines(of vectors: [LoadedVector]) -> [UInt8] {
    var lines: [UInt8] = []
    for loaded in vectors {
      lines += loaded.vector.id.utf8
      lines.append(0x09)
      lines += of(loaded.vector).utf8
      lines.append(0x0A)
    }
    return lines
  }

  /// The digest written from the FNV-1a hash of a selection's lines (`lines(of:)`, in selection order), or of a
  /// vector's meaning.
  static func digest(ofHash hash: UInt64) -> String {
    let hex = String(hash, radix: 16)
    return "fnv1a64:" + String(repeating: "0", count: 16 - hex.count) + hex
  }
}
