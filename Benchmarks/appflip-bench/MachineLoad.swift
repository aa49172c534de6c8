import Foundation

/// The machine's CPU time so far, busy and idle, from `/proc/stat` (Linux only): how busy every core was between two
/// samples shows whether a parallel run kept the cores working.
struct MachineLoad {
  /// Clock ticks every core spent on anything but idling and waiting for I/O.
  var busy: Double
  /// Clock ticks every core spent idle or waiting for I/O.
  var idle: Double

  /// The counters now; nil where there is no `/proc/stat`.
  static func sample() -> MachineLoad? {
    guard let text = try? String(contentsOfFile: "/proc/stat", encoding: .utf8),
      let line = text.split(separator: "\n").first(where: { $0.hasPrefix("cpu ") })
    else { return nil }
    // user nice system idle iowait irq softirq steal (guest time is already in user)
    let ticks = line.split(separator: " ").dropFirst().prefix(8).compactMap { Double($0) }
    guard ticks.count == 8 else { return nil }
    return MachineLoad(busy: ticks[0] + ticks[1] + ticks[2] + ticks[5] + ticks[6] + ticks[7], idle: ticks[3] + ticks[4])
  }

  /// The share of the cores' time spent busy since `earlier`, 0 to 1; nil when no time passed.
  func busyShare(since earlier: MachineLoad) -> Double? {
    let busy = self.busy - earlier.busy
    let total = busy + idle - earlier.idle
    return total > 0 ? busy / total : nil
  }
}
