import Foundation

#if canImport(Darwin)
  import Darwin
#endif

/// The machine the figures come from, in one line: cores, CPU, operating system, compiler, build configuration.
enum Machine {
  /// For example `2 cores, Intel(R) Xeon(R) CPU @ 2.20GHz, Debian GNU/Linux 12 (bookworm), Linux 6.1.0, Swift 6.3 compiler, release build`.
  static var line: String {
    let info = ProcessInfo.processInfo
    let cores =
      info.activeProcessorCount == info.processorCount
      ? "\(info.processorCount) cores" : "\(info.activeProcessorCount) of \(info.processorCount) cores active"
    return [cores, cpuModel, operatingSystem, compiler, buildConfiguration].compactMap { $0 }.joined(separator: ", ")
  }

  /// Whether this is an optimized build; debug figures are not worth quoting.
  static var isRelease: Bool {
    #if DEBUG
      false
    #else
      true
    #endif
  }

  static var buildConfiguration: String { isRelease ? "release build" : "DEBUG BUILD (use -c release)" }

  /// The CPU's model name: `/proc/cpuinfo` on Linux, `machdep.cpu.brand_string` on Apple platforms.
  static var cpuModel: String? {
    #if canImport(Darwin)
      var size = 0
      guard sysctlbyname("machdep.cpu.brand_string", nil, &size, nil, 0) == 0, size > 1 else { return nil }
      var bytes = [CChar](repeating: 0, count: size)
      guard sysctlbyname("machdep.cpu.brand_string", &bytes, &size, nil, 0) == 0 else { return nil }
      return String(decoding: bytes.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    #else
      guard let text = try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8) else { return nil }
      for line in text.split(separator: "\n") {
        let parts = line.split(separator: ":", maxSplits: 1)
        if parts.count == 2, parts[0].trimmingCharacters(in: .whitespaces) == "model name" {
          return parts[1].trimmingCharacters(in: .whitespaces)
        }
      }
      return nil
    #endif
  }

  /// The distribution's name from `/etc/os-release` and the kernel version on Linux; the OS version elsewhere.
  static var operatingSystem: String {
    #if os(Linux)
      let kernel = ProcessInfo.processInfo.operatingSystemVersion
      let linux = "Linux \(kernel.majorVersion).\(kernel.minorVersion).\(kernel.patchVersion)"
      if let text = try? String(contentsOfFile: "/etc/os-release", encoding: .utf8),
        let line = text.split(separator: "\n").first(where: { $0.hasPrefix("PRETTY_NAME=") })
      {
        let name = line.dropFirst("PRETTY_NAME=".count).trimmingCharacters(in: CharacterSet(charactersIn: "\""))
        return "\(name), \(linux)"
      }
      return linux
    #else
      return ProcessInfo.processInfo.operatingSystemVersionString
    #endif
  }

  /// The compiler that built this binary, to the minor version (known at compile time, so it costs nothing).
  static var compiler: String {
    #if compiler(>=7.0)
      "Swift 7 or later compiler"
    #elseif compiler(>=6.4)
      "Swift 6.4 compiler"
    #elseif compiler(>=6.3)
      "Swift 6.3 compiler"
    #elseif compiler(>=6.2)
      "Swift 6.2 compiler"
    #elseif compiler(>=6.1)
      "Swift 6.1 compiler"
    #else
      "Swift 6.0 compiler"
    #endif
  }
}
