extension VectorResult {
  /// What a result stands for: a vector, or a file or setting that kept vectors from running.
  ///
  /// The origin, not the area, decides the exit code and the JUnit error type; the report area of every origin but
  /// `vector` is its raw value, and a document's results read back get their origin from it.
  package enum Origin: String, Sendable, Hashable, CaseIterable {
    /// A vector that loaded; its area is its file's `area`.
    case vector = ""
    /// A vector or vector file that could not be used (report area `vector-files`).
    case vectorFile = "vector-files"
    /// A waiver that matches no vector, or a problem of the waivers (report area `waivers`).
    case waiver = "waivers"
    /// The configuration file, which could not be read (report area `configuration-file`).
    case configurationFile = "configuration-file"
    /// The waiver file, which could not be read (report area `waiver-file`).
    case waiverFile = "waiver-file"
    /// A problem of the partner configuration itself (report area `configuration`).
    case configuration
    /// A selection of vectors that selects nothing (report area `selection`).
    case selection
    /// A harness that cannot run as set up, e.g. reports another harness writes too (report area `harness`).
    case harness
  }
}
