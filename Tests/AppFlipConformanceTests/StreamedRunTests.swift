import AppFlip
import Foundation
import Testing

@testable import AppFlipConformance

@Suite("Runs that start while their vectors load")
struct StreamedRunTests {
  static let catalog = VectorLoader.loadBundled()
  static let adapter = InProcessAdapter(name: "AppFlipReferenceHandler") { ReferenceHandlerAdapter(configuration: $0) }

  /// The results without their times, which no two runs share.
  static func untimed(_ results: [VectorResult]) -> [VectorResult] {
    results.map {
      var result = $0
      result.duration = 0
      return result
    }
  }

  @Test("The loader hands over the partner definitions, then each file as it loads, in order: together the catalog")
  func partsInOrder() throws {
    let parts = Locked<[VectorCatalog]>([])
    VectorLoader.load([VectorLoader.bundledDirectory], displayPaths: ["Vectors/corpus"]) { part in
      parts.withLock { $0.append(part) }
    }
    let received = parts.withLock { $0 }
    let files = Set(Self.catalog.vectors.map(\.file))
    #expect(received.count == files.count + 1)
    #expect(received[0].vectors.isEmpty && received.dropFirst().allSatisfy { Set($0.vectors.map(\.file)).count == 1 })
    // Each part is its file loaded on its own, in the folder's sorted order: not the streamed loader compared with itself.
    let paths = try FileManager.default.contentsOfDirectory(
      at: VectorLoader.bundledDirectory, includingPropertiesForKeys: nil
    ).filter { $0.pathExtension == "json" }.sorted { $0.lastPathComponent < $1.lastPathComponent }
    #expect(received.count == paths.count + 1)
    for (part, path) in zip(received.dropFirst(), paths) {
      let alone = VectorLoader.load(path, displayPath: path.path)
      #expect(part.vectors.map(\.vector) == alone.vectors.map(\.vector), "\(path.lastPathComponent)")
    }
  }

  @Test("The selection's digest made file by file, each hashed once those before it were, is the whole selection's")
  func digestFileByFile() async {
    let vectors = Self.catalog.vectors
    let whole = Fingerprint.digest(of: vectors)
    // Uneven parts, many of them, so that later ones are often fingerprinted before earlier ones.
    let digest = SelectionDigest()
    var start = 0
    for size in [1, 7, 0, 50, 3].cycled(until: vectors.count) where start < vectors.count {
      digest.add(Array(vectors[start..<min(vectors.count, start + size)]))
      start += size
    }
    #expect(await digest.value == whole)
    // The order is the selection's: the same parts added in another order make another digest.
    let reversed = SelectionDigest()
    reversed.add(Array(vectors.suffix(vectors.count / 2)))
    reversed.add(Array(vectors.prefix(vectors.count - vectors.count / 2)))
    #expect(await reversed.value != whole)
  }

  @Test("A run fed file by file starts on the first and gives the results of the whole catalog run at once")
  func fedFileByFile() async throws {
    let runner = Runner(adapters: [Self.adapter, Self.adapter])
    let whole = await runner.run(Self.catalog)
    let feed = VectorFeed()
    let ended = Locked(0)
    let run = Task { await runner.run(feed, control: RunControl(), onResult: { _, _ in ended.withLock { $0 += 1 } }) }
    let files = Dictionary(grouping: Self.catalog.vectors, by: \.file)
    let order = Self.catalog.vectors.map(\.file).reduce(into: [String]()) { if $0.last != $1 { $0.append($1) } }
    feed.add(files[order[0]]!)
    // The first file's vectors end while the others are not even added.
    let clock = ContinuousClock()
    let start = clock.now
    while ended.withLock({ $0 }) < files[order[0]]!.count, clock.now - start < .seconds(60) {
      try await Task.sleep(for: .milliseconds(5))
    }
    #expect(ended.withLock { $0 } == files[order[0]]!.count)
    for file in order.dropFirst() { feed.add(files[file]!) }
    feed.end()
    let streamed = await run.value
    #expect(Self.untimed(streamed) == Self.untimed(whole))
  }

  @Test("A run of a feed that ends empty returns no result, and a cancelled one reports what was added as not run")
  func emptyAndCancelled() async {
    let runner = Runner(adapters: [Self.adapter])
    let empty = VectorFeed()
    let nothing = Task { await runner.run(empty, control: RunControl()) }
    empty.end()
    #expect(await nothing.value.isEmpty)
    let feed = VectorFeed()
    let control = RunControl()
    control.stop(.interrupted)
    let stopped = Task { await runner.run(feed, control: control) }
    stopped.cancel()
    // Cancelled while the feed is open (a signal while the files load): it waits for the feed to end, whatever is
    // added meanwhile, and reports every vector it held.
    try? await Task.sleep(for: .milliseconds(50))
    feed.add(Array(Self.catalog.vectors.prefix(2)))
    try? await Task.sleep(for: .milliseconds(50))
    feed.add([Self.catalog.vectors[2]])
    feed.end()
    let results = await stopped.value
    #expect(results.map(\.id) == Self.catalog.vectors.prefix(3).map(\.vector.id))
    #expect(results.allSatisfy { $0.isNotRun && $0.message == "not run: interrupted (SIGINT)" })
  }
}

@Suite("Crash journal of a run whose vectors load as it runs")
struct GrowingJournalTests {
  @Test("Cases added after the start are listed as not run, then running, then with their result, valid throughout")
  func addedCases() throws {
    let folder = try PartnerFolder()
    defer { folder.remove() }
    let path = folder.root.appendingPathComponent("journal.xml").path
    let planned = RunJournalTests.planned(4).results
    let passed = planned.map {
      var result = $0
      result.status = .passed
      return result
    }
    let journal = RunJournal(
      RunRecord(results: [planned[0]], implementation: "impl", configuration: .default), path: path)
    defer { journal.end() }
    let read = { try JUnitReader.read(try String(contentsOfFile: path, encoding: .utf8)) }
    journal.start(0)
    #expect(journal.finish(0, passed[0]), "the one case planned so far ended")
    #expect(journal.add(Array(planned[1...2])) == 1)
    #expect(try read().testcases.map { $0["name"] ?? "" } == ["t/0", "t/1", "t/2"])
    #expect(try read().counts["skipped"] == 2)
    journal.start(2)
    #expect(journal.add([planned[3]]) == 3)
    let xml = try String(contentsOfFile: path, encoding: .utf8)
    #expect(xml.contains(#"name="t/2" time="0"><error type="implementation-error" message="the process ended while"#))
    #expect(try read().counts["error"] == 1 && read().counts["skipped"] == 2)
    // The header counts every case planned so far.
    #expect(
      xml.contains(#"<testsuite name="appflip-conformance" tests="0000000004" failures="0""#), "\(xml.prefix(400))")
    var failed = planned[2]
    failed.status = .failed
    #expect(!journal.finish(2, failed))
    #expect(!journal.finish(1, passed[1]))
    #expect(journal.finish(3, passed[3]), "the last case to end says so")
    let last = try read()
    #expect(last.testcases.map { $0["name"] ?? "" } == ["t/0", "t/2", "t/1", "t/3"])
    #expect(last.counts["skipped"] == nil && last.counts["error"] == nil && last.counts["failure"] == 1)
    #expect(journal.record.results.map(\.status) == [.passed, .passed, .failed, .passed])
  }
}

extension Array {
  /// The elements repeated, `total` of them.
  fileprivate func cycled(until total: Int) -> [Element] {
    (0..<total).map { self[$0 % count] }
  }
}
