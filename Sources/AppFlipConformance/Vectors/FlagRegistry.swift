import AppFlipVectors
import Foundation

/// The registry of bug-class flags (`Vectors/flags.json`), in the manner of Wycheproof's `notes`.
package struct FlagRegistry: Sendable, Hashable, Codable {
  /// One bug class.
  package struct Flag: Sendable, Hashable, Codable {
    /// What goes wrong.
    package var description: String
    /// What it leads to.
    package var effect: String
    /// RFCs, CVEs and real-world reports.
    package var links: [String]
    /// The rules (RULES.md ids) whose findings show this bug class in a vector flagged with it; `nil` when not given.
    package var rules: [String]?
    /// Finding fields (e.g. `reply.state`) that show this bug class whatever their rule; `nil` when not given.
    package var fields: [String]?

    /// Whether a finding shows this bug class: its rule or field is one the flag names; a flag naming neither
    /// (a partner's own) is shown by any finding.
    package func isShown(by finding: Finding) -> Bool {
      guard rules != nil || fields != nil else { return true }
      return rules?.contains(finding.rule) == true || fields?.contains(finding.field) == true
    }
  }

  /// The registry's schema version.
  package var schemaVersion: Int
  /// What the registry is.
  package var description: String
  /// The flags by name.
  package var flags: [String: Flag]

  /// The registry bundled with the package; empty if it cannot be read (the lint test reads it strictly).
  package static let bundled: FlagRegistry = {
    guard let data = try? Data(contentsOf: BundledVectors.flags),
      let registry = try? JSONDecoder().decode(FlagRegistry.self, from: data)
    else {
      return FlagRegistry(schemaVersion: 1, description: "", flags: [:])
    }
    return registry
  }()
}

extension FlagRegistry {
  enum CodingKeys: String, CodingKey, CaseIterable {
    case schemaVersion, description, flags
  }

  /// Decodes a `flags.json` strictly, the bundled one or a partner's next to its vectors: a misspelled field is
  /// refused rather than ignored.
  package init(from decoder: any Decoder) throws {
    let container = try decoder.strictContainer(keyedBy: CodingKeys.self)
    schemaVersion = try container.decode(Int.self, forKey: .schemaVersion)
    description = try container.decode(String.self, forKey: .description)
    flags = try container.decode([String: Flag].self, forKey: .flags)
  }
}

extension FlagRegistry.Flag {
  enum CodingKeys: String, CodingKey, CaseIterable {
    case description, effect, links, rules, fields
  }

  /// Decodes strictly: a misspelled field is refused, never ignored; `links` may be left out.
  package init(from decoder: any Decoder) throws {
    let container = try decoder.strictContainer(keyedBy: CodingKeys.self)
    description = try container.decode(String.self, forKey: .description)
    effect = try container.decode(String.self, forKey: .effect)
    links = try container.decodeIfPresent([String].self, forKey: .links) ?? []
    rules = try container.decodeIfPresent([String].self, forKey: .rules)
    fields = try container.decodeIfPresent([String].self, forKey: .fields)
  }
}

extension FlagRegistry {
  /// The bug classes a failing result shows: each flag the vector declares for which one of its findings is of the
  /// flag's `rules` or `fields`; a flag the registry does not know is kept, since nothing says what it is about.
  ///
  /// A vector declares the bug classes it *can* catch; what it caught depends on how the handler failed. A handler that
  /// opens its reply with universal links only but answers the wrong error code fails a `universal-links` vector with an
  /// `AF-RE-4` finding only, so it shows under `error-mapping` (if flagged) and not under `universal-links` (`AF-RE-9`).
  package func evidenced(_ result: VectorResult) -> [String] {
    var seen: Set<String> = []
    return result.flags.filter { flag in
      guard seen.insert(flag).inserted else { return false }
      guard let entry = flags[flag] else { return true }
      return result.findings.contains(where: entry.isShown(by:))
    }
  }
}

extension FlagRegistry {
  /// The flags of this registry that are not bundled ones: a partner's own (its `flags.json`).
  package var partnerFlags: [String: Flag] { flags.filter { FlagRegistry.bundled.flags[$0.key] == nil } }
}
