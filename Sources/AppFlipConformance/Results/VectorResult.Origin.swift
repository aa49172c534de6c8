extension VectorResult {
  /// What a result stands for: a vector, or a file or setting that kept vectors from running.
  ///
  /// The origin, not the area, decides the exit code and the JUnit error type; the report area of every origin but
  /// `vector` is derived from it (`reportArea`).
  package enum Origin: Sendable, Hashable, CaseIterable {
    /// A vector that loaded; its area is its file's `area`.
    case vector
    /// A vector or vector file that could not be used (report area `vector-files`).
    case vectorFile
    /// A waiver that matches no vector, or a problem of the waivers (report area `waivers`).
    case waiver
    /// The configuration file, which could not be read (report area `configuration-file`).
    case configurationFile
    /// The waiver file, which could not be read (report area `waiver-file`).
    case waiverFile
    /// A problem of the partner configuration itself (report area `configuration`).
    case configuration
    /// A selection of vectors that selects nothing (report area `selection`).
    case selection
    /// A harness that cannot run as set up, e.g. reports another harness writes too (report area `harness`).
    case harness

    /// The area reports show for a result of this origin; `nil` for a vector, whose area is its file's.
    package var reportArea: String? {
      switch self {
      case .vector: nil
      case .vectorFile: "vector-files"
      case .waiver: "waivers"
      case .configurationFile: "configuration-file"
      case .waiverFile: "waiver-file"
      case .configuration: "configuration"
      case .selection: "selection"
      case .harness: "harness"
      }
    }

    /// The origin a report area stands for, when results are read back from a document: a vector for any other area.
    init(reportArea area: String) {
      self = Origin.allCases.first { $0.reportArea == area } ?? .vector
    }
  }
}
