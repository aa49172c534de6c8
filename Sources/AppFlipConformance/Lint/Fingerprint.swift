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
    let hash = FNV1a.hash(data)
    let hex = String(hash, radix: 16)
    return "fnv1a64:" + String(repeating: "0", count: 16 - hex.count) + hex
  }
}

extension Fingerprint {
  /// The digest of a selection of vectors, e.g. `fnv1a64:8c3f…`: the FNV-1a hash of each vector's id and fingerprint,
  /// a line each in selection order, so two reports ran the same vectors exactly when their digests agree.
  /// The fingerprints are made on every core, a JSON encoding each: at 10 000 vectors, a third of a second on one.
  package static func digest(of vectors: [LoadedVector]) -> String {
    var prints = [String](repeating: "", count: vectors.count)
    prints.withUnsafeMutableBufferPointer { buffer in
      nonisolated(unsafe) let out = buffer  // each index is written by one iteration only
      let chunk = max(64, vectors.count / (ProcessInfo.processInfo.activeProcessorCount * 4) + 1)
      DispatchQueue.concurrentPerform(iterations: (vectors.count + chunk - 1) / chunk) { part in
        for index in (part * chunk)..<min(vectors.count, (part + 1) * chunk) { out[index] = of(vectors[index].vector) }
      }
    }
    var lines: [UInt8] = []
    for (loaded, print) in zip(vectors, prints) {
      lines += loaded.vector.id.utf8
      lines.append(0x09)
      lines += print.utf8
      lines.append(0x0A)
    }
    let hex = String(FNV1a.hash(lines), radix: 16)
    return "fnv1a64:" + String(repeating: "0", count: 16 - hex.count) + hex
  }
}
