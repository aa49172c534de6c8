/// The suite's name and version, pinned in every report.
public enum SuiteInfo {
  /// The tool's name.
  package static let name = "appflip-conformance"
  /// The suite's version (semantic versioning; see README "Versions").
  public static let version = "0.1.0"
}
