import AppFlipConformance
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The subprocess transport on its own: a trivial adapter (`Tests/Fixtures/subprocess/trivial_adapter.py`, which
/// answers every step at once) through `SubprocessAdapter.handle`, against the raw pipe round trip to the same script
/// (write a run line, read the answer line, on one thread), and their ratio.
enum Transport {
  /// The figure's rows.
  static func print(_ options: BenchOptions, python: String) async {
    let label = "--exec transport: trivial_adapter.py"
    guard let script = Executables.fixture("trivial_adapter.py") else {
      Swift.print(Format.row(label, "not available (Tests/Fixtures/subprocess/trivial_adapter.py not found)"))
      return
    }
    let command = "\(Executables.shellQuoted(python)) \(Executables.shellQuoted(script))"
    let request = HandlerRequest(
      vectorID: "bench/transport", step: 0, link: "https://partner.example/appflip?state=s&client_id=c",
      outcome: .granted(code: "c"), configuration: .default)
    let steps = 200
    let adapter = SubprocessAdapter(command: command, timeout: 10)
    defer { adapter.shutdown() }
    do {
      _ = try await adapter.handle(request)
    } catch {
      Swift.print(Format.row(label, "not available (\(error))"))
      return
    }
    guard let raw = RawPipe(python: python, script: script, request: request) else {
      Swift.print(Format.row(label, "not available (could not start \(script))"))
      return
    }
    defer { raw.stop() }
    // Alternate the two, round by round, so that a busy machine slows both alike.
    // Each side of a round lasts about half the round's time (at 30 µs a step).
    let count = max(steps, Int(options.roundSeconds / 2 / 30e-6))
    var harness: [Double] = []
    var bare: [Double] = []
    var harnessCPU: [Double] = []
    var bareCPU: [Double] = []
    for _ in 0..<max(3, options.rounds) {
      var cpu = Stopwatch.processCPUSeconds()
      harness.append(
        await Stopwatch.seconds {
          for _ in 0..<count { _ = try? await adapter.handle(request) }
        } / Double(count))
      harnessCPU.append((Stopwatch.processCPUSeconds() - cpu) / Double(count))
      cpu = Stopwatch.processCPUSeconds()
      bare.append(
        Stopwatch.seconds {
          for seq in 0..<count { raw.roundTrip(seq: seq) }
        } / Double(count))
      bareCPU.append((Stopwatch.processCPUSeconds() - cpu) / Double(count))
    }
    let harnessStep = Format.median(harness)
    let bareStep = Format.median(bare)
    Swift.print(
      Format.row(
        label + " (handle)",
        "\(Format.microseconds(harnessStep))/step; the harness's own CPU: "
          + "\(Format.microseconds(Format.median(harnessCPU)))/step"))
    Swift.print(
      Format.row(
        "raw pipe round trip, same script",
        "\(Format.microseconds(bareStep))/step; its own CPU: \(Format.microseconds(Format.median(bareCPU)))/step"))
    let ratios = zip(harness, bare).map { $0 / $1 }.map { String(format: "%.2f", $0) }.joined(separator: " ")
    Swift.print(
      Format.row(
        "--exec / pipe", String(format: "%.2f", harnessStep / bareStep) + " (goal ≤ 1.5); per round: \(ratios)"))
  }
}

/// The trivial adapter on bare pipes: one blocking write and one blocking read per step.
final class RawPipe {
  private let process = Process()
  private let input = Pipe()
  private let output = Pipe()
  private var buffer = [UInt8](repeating: 0, count: 65536)
  /// The run message's bytes around its seq, the same fields and values the harness sends.
  private let head: [UInt8]
  private let tail: [UInt8]

  init?(python: String, script: String, request: HandlerRequest) {
    let configuration = request.configuration
    let urls = configuration.allowList.urls.map { "\"\($0)\"" }.joined(separator: ",")
    head = Array(#"{"cmd":"run","seq":"#.utf8)
    tail = Array(
      (#","vector":"\#(request.vectorID)","step":0,"link":"\#(request.link)","#
        + #""outcome":{"result":"granted","code":"c"},"configuration":{"clientId":"\#(configuration.clientID)","#
        + #""universalLink":"\#(configuration.universalLink)","allowedRedirectUris":[\#(urls)]}}"# + "\n").utf8)
    process.executableURL = URL(fileURLWithPath: python)
    process.arguments = [script]
    process.standardInput = input
    process.standardOutput = output
    do { try process.run() } catch { return nil }
    send(Array(#"{"cmd":"start","version":1,"versions":[1,2]}"#.utf8) + [10])
    _ = readLine()
  }

  /// One run line out, one answer line back.
  func roundTrip(seq: Int) {
    send(head + Array(String(seq).utf8) + tail)
    _ = readLine()
  }

  func stop() {
    try? input.fileHandleForWriting.close()
    process.waitUntilExit()
  }

  private func send(_ bytes: [UInt8]) {
    let descriptor = input.fileHandleForWriting.fileDescriptor
    _ = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
  }

  private func readLine() -> Int {
    let descriptor = output.fileHandleForReading.fileDescriptor
    var total = 0
    while true {
      let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
      if count <= 0 { return total }
      total += count
      if buffer[count - 1] == 10 { return total }
    }
  }
}
