import Foundation

extension ConformanceCommand {
  /// The selection the reports name: the vectors selected before `--shard` (their count and digest), and for a shard,
  /// where each of its results stands in the unsharded run, whose results are the setup problems, the unusable vector
  /// files, every selected vector, then the waivers that match none, in that order (`ResultsMerge`). `digest` is the
  /// selected vectors' digest, made beside the run.
  static func selection(
    of results: [VectorResult], selected: VectorCatalog, shard: VectorShard?, digest: SelectionDigest
  ) async -> RunSelection {
    var selection = RunSelection(count: selected.vectors.count, digest: await digest.value)
    guard let shard else { return selection }
    let groups = VectorCatalog.group(selected.problems)
    // A problem's result is named by its file and its vector's id, or its file's path (`Runner.results(for:)`).
    func key(_ file: String, _ id: String) -> String { file + "\u{0}" + id }
    let problemIndex = Dictionary(
      groups.enumerated().map { (key($1[0].file, $1[0].vectorID ?? $1[0].file), $0) }, uniquingKeysWith: min)
    let vectorIndex = Dictionary(
      selected.vectors.enumerated().map { ($1.vector.id, $0) }, uniquingKeysWith: min)
    // The results before the first problem or vector are the same in every shard, and so are those after the last.
    let isRun = { (result: VectorResult) in
      result.origin == .vector || (result.origin == .vectorFile && !result.isNotRun)
    }
    let lead = results.firstIndex(where: isRun) ?? results.count
    let tail = (results.lastIndex(where: isRun) ?? (lead - 1)) + 1
    let body = groups.count + selected.vectors.count
    var positions: [Int] = []
    positions.reserveCapacity(results.count)
    for (index, result) in results.enumerated() {
      if index < lead {
        positions.append(index)
      } else if index >= tail {
        positions.append(lead + body + index - tail)
      } else if result.origin == .vector {
        positions.append(lead + groups.count + (vectorIndex[result.id] ?? 0))
      } else {
        positions.append(lead + (problemIndex[key(result.file, result.id)] ?? 0))
      }
    }
    selection.shard = RunSelection.Shard(
      index: shard.index, count: shard.count, of: lead + body + results.count - tail, positions: positions)
    return selection
  }
}

/// A selection's digest (`Fingerprint.digest(of:)`) made beside the run, file by file as the vectors load, on
/// threads of Dispatch's utility queue: a JSON encoding per vector (at 10 000 vectors a third of a second of one core),
/// which on the default queue, whose threads are Swift's cooperative pool on Linux, would hold up the run's workers.
/// Each file's lines are hashed as soon as those before them were, so the run's end waits for the last file's alone.
final class SelectionDigest: Sendable {
  /// The files added, those hashed so far (in order) and their hash, and lines made while a file before them is not.
  private let state = Locked<(added: Int, hashed: Int, hash: UInt64, made: [Int: [UInt8]])>((0, 0, FNV1a.empty, [:]))
  private let group = DispatchGroup()

  /// Fingerprints these vectors, the next ones of the selection.
  func add(_ vectors: [LoadedVector]) {
    let index = state.withLock { state in
      state.added += 1
      return state.added - 1
    }
    DispatchQueue.global(qos: .utility).async(group: group) { [state] in
      let made = Fingerprint.lines(of: vectors)
      state.withLock { state in
        state.made[index] = made
        while let next = state.made.removeValue(forKey: state.hashed) {
          state.hash = FNV1a.hash(next, after: state.hash)
          state.hashed += 1
        }
      }
    }
  }

  /// The digest, once every vector added is fingerprinted.
  var value: String {
    get async {
      await withCheckedContinuation { continuation in group.notify(queue: .global()) { continuation.resume() } }
      return Fingerprint.digest(ofHash: state.withLock { $0.hash })
    }
  }
}
