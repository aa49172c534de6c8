import Foundation

/// The vector files bundled with appflip-conformance, as package resources.
public enum BundledVectors {
  /// The folder of bundled vector files (`Vectors/corpus` in the repository).
  public static var corpus: URL {
    Bundle.module.resourceURL!.appendingPathComponent("corpus", isDirectory: true)
  }

  /// The folder of bundled authorization-endpoint vector files (`Vectors/endpoint` in the repository).
  public static var endpoint: URL {
    Bundle.module.resourceURL!.appendingPathComponent("endpoint", isDirectory: true)
  }

  /// The folder of JSON Schemas (`Vectors/schema` in the repository).
  public static var schema: URL {
    Bundle.module.resourceURL!.appendingPathComponent("schema", isDirectory: true)
  }

  /// The registry of bug-class flags (`Vectors/flags.json` in the repository).
  public static var flags: URL {
    Bundle.module.resourceURL!.appendingPathComponent("flags.json")
  }

  /// The rules document (`RULES.md` at the top of the repository; a copy in `Vectors/` ships as a resource, and a test
  /// checks the two are the same).
  package static var rules: URL {
    Bundle.module.resourceURL!.appendingPathComponent("RULES.md")
  }
}
