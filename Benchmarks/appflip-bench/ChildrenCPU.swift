import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// CPU time of this process's children (the adapters it started), every thread's, from `/proc/PID/task/*/schedstat`
/// (Linux only): with the harness's own CPU it tells whether a run was short of cores or waiting on hand-offs.
enum ChildrenCPU {
  /// Seconds of CPU the running children have used so far; nil where `/proc` does not say.
  static func seconds() -> Double? {
    let parent = getpid()
    guard let entries = try? FileManager.default.contentsOfDirectory(atPath: "/proc") else { return nil }
    var nanoseconds: UInt64 = 0
    var found = false
    for entry in entries where entry.allSatisfy(\.isNumber) {
      guard let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
        let close = stat.lastIndex(of: ")")
      else { continue }
      // After "PID (COMMAND)": state, then the parent's pid.
      let fields = stat[stat.index(after: close)...].split(separator: " ")
      guard fields.count > 1, Int32(fields[1]) == parent else { continue }
      let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(entry)/task")) ?? []
      for task in tasks {
        guard let text = try? String(contentsOfFile: "/proc/\(entry)/task/\(task)/schedstat", encoding: .utf8),
          let first = text.split(separator: " ").first, let used = UInt64(first)
        else { continue }
        nanoseconds += used
        found = true
      }
    }
    return found ? Double(nanoseconds) / 1e9 : nil
  }
}
