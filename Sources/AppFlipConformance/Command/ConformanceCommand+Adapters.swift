import Foundation

extension ConformanceCommand {
  /// How many adapters run at once: `--jobs`, else the machine's active cores, except against an HTTP endpoint, whose
  /// server may not expect parallel sign-ins, and with `--max-failures`, which stops after exactly n failures in
  /// catalog order only one vector at a time (1).
  static func jobs(_ options: CommandLineOptions) -> Int {
    let serial = options.endpoint != nil || options.maxFailures != nil
    return options.jobs ?? (serial ? 1 : max(1, ProcessInfo.processInfo.activeProcessorCount))
  }

  /// One adapter per job, each with an implementation of its own: its own process, or its own in-process handlers;
  /// copies of one endpoint adapter, which share its session (`EndpointSession`).
  static func makeAdapters(_ options: CommandLineOptions) throws(UsageError) -> [any ConformanceAdapter] {
    var adapters: [any ConformanceAdapter] = []
    for _ in 0..<jobs(options) {
      if let endpoint = adapters.first as? EndpointAdapter {
        adapters.append(endpoint)
      } else {
        adapters.append(try makeAdapter(options))
      }
    }
    return adapters
  }

  /// The implementation under test the options name: a subprocess, an HTTP endpoint, or the bundled reference handler.
  static func makeAdapter(_ options: CommandLineOptions) throws(UsageError) -> any ConformanceAdapter {
    if let command = options.exec {
      return SubprocessAdapter(command: command, timeout: options.timeout)
    }
    if let endpoint = options.endpoint {
      guard let url = URL(string: endpoint), let scheme = url.scheme, ["http", "https"].contains(scheme) else {
        throw .invalidValue(option: "--endpoint", value: endpoint, expected: "an http or https URL")
      }
      var headers: [(String, String)] = []
      for header in options.headers {
        guard let colon = header.firstIndex(of: ":") else {
          throw .invalidValue(option: "--header", value: header, expected: "'Name: value'")
        }
        headers.append(
          (String(header[..<colon]), String(header[header.index(after: colon)...]).trimmingCharacters(in: .whitespaces))
        )
      }
      let staging = options.endpointStaging
      if !options.cookies.isEmpty { headers.append(("Cookie", options.cookies.joined(separator: "; "))) }
      var adapter = EndpointAdapter(
        endpoint: url, headers: headers, timeout: options.timeout, parameters: staging.parameterPairs,
        scope: staging.scope, pkce: staging.pkce)
      adapter.caCertificate = staging.caCertificate
      return adapter
    }
    return InProcessAdapter(name: "AppFlipReferenceHandler") { ReferenceHandlerAdapter(configuration: $0) }
  }
}
