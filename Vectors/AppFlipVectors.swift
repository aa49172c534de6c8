import Foundation

/// The vector files bundled with appflip-conformance, as package resources.
///
/// The resource bundle is looked up without `Bundle.module`, whose accessor ends the process (a trap, SIGILL) when a
/// binary was copied without its bundle: it is looked for beside the executable and the loaded bundles, then in the
/// package's `Vectors/` folder itself (a binary moved on the machine that built it); when it is nowhere, `missing`
/// says so in a sentence and the URLs name where it was expected.
public enum BundledVectors {
  /// The resource bundle's name, as SwiftPM builds it.
  static let bundleName = "appflip-conformance_AppFlipVectors"

  /// The folder holding the resources (`corpus`, `endpoint`, `schema`, `flags.json`, `RULES.md`), if it is found.
  package static let resources: URL? = {
    let bundles = [Bundle.main] + Bundle.allBundles
    let folders: [URL?] = bundles.flatMap { [$0.resourceURL, $0.bundleURL, $0.bundleURL.deletingLastPathComponent()] }
    for folder in folders.compactMap({ $0 }) {
      for suffix in [".resources", ".bundle"] {
        let path = folder.appendingPathComponent(bundleName + suffix).path
        if let url = Bundle(path: path)?.resourceURL, holdsResources(url) { return url }
      }
    }
    let source = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    return holdsResources(source) ? source : nil
  }()

  /// Why the bundled vectors cannot be read, in a sentence, or `nil` when the resources are there.
  package static var missing: String? {
    guard resources == nil else { return nil }
    return "the bundled vectors, flags and rules are missing: this binary was copied without its resource bundle "
      + "\(bundleName).resources (\(bundleName).bundle on Apple platforms); copy that folder next to the binary"
  }

  /// The folder of bundled vector files (`Vectors/corpus` in the repository).
  public static var corpus: URL { folder.appendingPathComponent("corpus", isDirectory: true) }

  /// The folder of bundled authorization-endpoint vector files (`Vectors/endpoint` in the repository).
  public static var endpoint: URL { folder.appendingPathComponent("endpoint", isDirectory: true) }

  /// The folder of bundled token-endpoint vector files (`Vectors/token` in the repository).
  public static var token: URL {
    Bundle.module.resourceURL!.appendingPathComponent("token", isDirectory: true)
  }

  /// The folder of bundled universal-link association vector files (`Vectors/association` in the repository).
  public static var association: URL {
    Bundle.module.resourceURL!.appendingPathComponent("association", isDirectory: true)
  }

  /// The folder of JSON Schemas (`Vectors/schema` in the repository).
  public static var schema: URL { folder.appendingPathComponent("schema", isDirectory: true) }

  /// The registry of bug-class flags (`Vectors/flags.json` in the repository).
  public static var flags: URL { folder.appendingPathComponent("flags.json") }

  /// The rules document (`RULES.md` at the top of the repository; a copy in `Vectors/` ships as a resource, and a test
  /// checks the two are the same).
  package static var rules: URL { folder.appendingPathComponent("RULES.md") }

  /// The resources, or where they were expected (beside the executable), so reading them fails with a path.
  private static var folder: URL {
    resources ?? Bundle.main.bundleURL.appendingPathComponent(bundleName + ".resources", isDirectory: true)
  }

  private static func holdsResources(_ folder: URL) -> Bool {
    FileManager.default.fileExists(atPath: folder.appendingPathComponent("corpus").path)
      && FileManager.default.fileExists(atPath: folder.appendingPathComponent("flags.json").path)
  }
}
