import AppFlipConformance
import Foundation
import Testing

@Suite("Interleaving barrier", .timeLimit(.minutes(1)))
struct InterleavingBarrierTests {
  @Test("Holds each party until every one has arrived, then releases them all")
  func releasesWhenFull() async {
    let barrier = InterleavingBarrier(parties: 3, patience: 600)
    let released = await withTaskGroup(of: Int.self) { group in
      for party in 0..<3 {
        group.addTask {
          await barrier.arrive()
          return party
        }
      }
      var released: [Int] = []
      for await party in group { released.append(party) }
      return released.sorted()
    }
    #expect(released == [0, 1, 2])
  }

  @Test("Releases a party whose partners never arrive once its patience has run out, not before")
  func releasesAfterPatience() async {
    let barrier = InterleavingBarrier(parties: 2, patience: 0.2)
    let start = ContinuousClock.now
    await barrier.arrive()
    #expect(ContinuousClock.now - start >= .milliseconds(200))
    // A party arriving after the release is not held.
    await barrier.arrive()
  }
}
