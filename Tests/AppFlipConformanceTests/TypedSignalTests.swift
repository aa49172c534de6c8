import AppFlip
import Foundation
import Testing

@testable import AppFlipConformance

@Suite("Typed signals")
struct TypedSignalTests {
  @Test("The exit code of a stopped run follows from the stop reason, not its words")
  func exitCodeFromStopReason() {
    #expect(ConformanceCommand.ExitCode(stoppedBy: .interrupted) == .interrupted)
    #expect(ConformanceCommand.ExitCode(stoppedBy: .terminated) == .terminated)
    #expect(ConformanceCommand.ExitCode(stoppedBy: .maxFailures(3)) == nil)
    // A sentence that merely mentions a signal is not one.
    #expect(ConformanceCommand.ExitCode(stoppedBy: .unusableInput("interrupted (SIGTERM) cannot be used")) == nil)
  }

  @Test("A stop reason reads as before in every report")
  func stopReasonWords() {
    #expect(StopReason.interrupted.description == "interrupted (SIGINT)")
    #expect(StopReason.terminated.description == "terminated (SIGTERM)")
    #expect(StopReason.maxFailures(2).description == "--max-failures 2 reached")
    let control = RunControl()
    control.stop(.terminated)
    control.stop(.interrupted)
    #expect(control.stopReason == .terminated)
  }

  @Test("The JUnit error type follows from the result's origin, whatever its area says")
  func errorTypeFromOrigin() {
    #expect(JUnitReport.errorType(.vectorFile) == "invalid-vector")
    #expect(JUnitReport.errorType(.configurationFile) == "invalid-file")
    #expect(JUnitReport.errorType(.waiverFile) == "invalid-file")
    #expect(JUnitReport.errorType(.waiver) == "implementation-error")
    #expect(JUnitReport.errorType(.vector) == "implementation-error")
    // A vector file whose area is spelled like a fake area is still a vector.
    let result = VectorResult(id: "v", area: "vector-files", file: "f", level: .must, status: .error, message: "m")
    #expect(result.origin == .vector)
    #expect(JUnitReport.render([result], implementation: "x").contains(#"type="implementation-error""#))
  }

  @Test("Results of files and settings keep the areas reports have always shown")
  func derivedAreas() {
    let areas = VectorResult.Origin.allCases.map { VectorResult(id: "i", origin: $0, file: "f", message: "m").area }
    #expect(
      areas == [
        "", "vector-files", "waivers", "configuration-file", "waiver-file", "configuration", "selection", "harness",
      ])
    #expect(
      Runner.results(for: [VectorError.invalidFile(file: "bad.json", reason: "broken")]).map(\.origin) == [.vectorFile])
  }

  @Test("A waiver that matches no vector is a waiver problem by origin")
  func unmatchedWaiver() {
    let file = WaiverFile(waivers: [Waiver(id: "no/such", reason: "r")])
    let results = file.apply(to: [], loadedIDs: ["t/ok"], file: "w.json")
    #expect(results.map(\.origin) == [.waiver])
    #expect(results.map(\.area) == ["waivers"])
  }

  @Test("Failures, warnings and errors need attention; nothing else does")
  func needsAttention() {
    #expect(Status.allCases.filter(\.needsAttention) == [.failed, .warning, .error])
  }

  @Test("A vector left out by a stopped run is marked not run by the runner, not by its message")
  func notRunIsAFlag() async {
    let catalog = Fixtures.catalog([Fixtures.accepted()])
    let control = RunControl()
    control.stop(.maxFailures(1))
    let results = await Runner(adapter: InProcessAdapter(name: "r") { ReferenceHandlerAdapter(configuration: $0) })
      .run(catalog, control: control)
    #expect(results.map(\.isNotRun) == [true])
    #expect(results.map(\.message) == ["not run: --max-failures 1 reached"])
    let lookalike = VectorResult(
      id: "v", area: "a", file: "f", level: .must, status: .skipped, message: "not run: a skip reason")
    #expect(!lookalike.isNotRun)
  }

  @Test("Adapters answer implementation and shutdown themselves, with defaults for those that start nothing")
  func adapterDefaults() {
    let adapter: any ConformanceAdapter = InProcessAdapter(name: "r") { ReferenceHandlerAdapter(configuration: $0) }
    #expect(adapter.implementation == nil)
    adapter.shutdown()
    let subprocess: any ConformanceAdapter = SubprocessAdapter(command: "true")
    subprocess.shutdown()
    #expect(subprocess.name == "true")
  }
}
