import Foundation

extension VectorLoader {
  /// Whether a file is a partner's `rules.json` or `flags.json`, read as definitions and never as a vector file.
  static func isDefinitionsFile(_ url: URL) -> Bool {
    [VectorDefinitions.rulesFileName, VectorDefinitions.flagsFileName].contains(url.lastPathComponent)
  }

  /// The files a path stands for: every `.json` file under a folder (in name order; a symlink to a folder is followed),
  /// or the one file given with the definition files next to it; a path that does not exist, or a folder without
  /// vector files, is a problem. Paths are shown with control characters escaped (`ConsoleText.line`), so a file
  /// named with a line break cannot forge a line of the console or a report.
  static func list(_ url: URL, displayPath: String) -> Result<Listing, VectorError> {
    let displayPath = ConsoleText.line(displayPath)
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
      return .failure(.unreadable(file: displayPath, reason: "no such file or folder"))
    }
    var listing = Listing()
    guard isDirectory.boolValue else {
      if isDefinitionsFile(url) {
        listing.definitionFiles.append((url, displayPath))
        return .success(listing)
      }
      listing.vectorFiles.append((url, displayPath))
      let folder = url.deletingLastPathComponent()
      let shownFolder = displayPath.contains("/") ? String(displayPath[...displayPath.lastIndex(of: "/")!]) : ""
      for name in [VectorDefinitions.rulesFileName, VectorDefinitions.flagsFileName] {
        let sibling = folder.appendingPathComponent(name)
        if FileManager.default.fileExists(atPath: sibling.path) {
          listing.definitionFiles.append((sibling, shownFolder + name))
        }
      }
      return .success(listing)
    }
    let folder = url.resolvingSymlinksInPath()
    let files = (FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)?.allObjects ?? [])
      .compactMap { $0 as? URL }
      .filter { $0.pathExtension == "json" }
      .map {
        ($0, ConsoleText.line(String($0.standardizedFileURL.path.dropFirst(folder.standardizedFileURL.path.count))))
      }
      .sorted { $0.1 < $1.1 }
    for (file, relative) in files {
      if isDefinitionsFile(file) {
        listing.definitionFiles.append((file, displayPath + relative))
      } else {
        listing.vectorFiles.append((file, displayPath + relative))
      }
    }
    if listing.vectorFiles.isEmpty {
      return .failure(.unreadable(file: displayPath, reason: "the folder holds no .json vector files"))
    }
    return .success(listing)
  }

  /// Reads partner definition files (each once, however often it was reached), checking that every rule id and flag
  /// is in the partner's namespace and defined once.
  static func loadDefinitions(_ files: [(URL, String)]) -> (VectorDefinitions, [VectorError]) {
    var definitions = VectorDefinitions()
    var problems: [VectorError] = []
    var seen: Set<String> = []
    for (url, shown) in files where seen.insert(url.standardizedFileURL.path).inserted {
      do throws(VectorError) {
        if url.lastPathComponent == VectorDefinitions.rulesFileName {
          let file = try decodeFile(PartnerRulesFile.self, at: url, displayPath: shown, as: .definitions)
          try checkSchemaVersion(file.schemaVersion, file: shown)
          for (id, rule) in file.rules.sorted(by: { $0.key < $1.key }) {
            if let reason = problem(defining: id, as: "rule", in: definitions) {
              problems.append(
                .invalidValue(file: shown, vectorID: nil, field: "rules.\(id)", value: id, reason: reason))
            } else {
              definitions.rules[id] = rule
              definitions.origins["rule " + id] = shown
            }
          }
        } else {
          let file = try decodeFile(FlagRegistry.self, at: url, displayPath: shown, as: .definitions)
          try checkSchemaVersion(file.schemaVersion, file: shown)
          for (name, flag) in file.flags.sorted(by: { $0.key < $1.key }) {
            let found = flagProblems(name, flag, in: definitions, file: shown)
            problems += found
            if found.isEmpty {
              definitions.flags[name] = flag
              definitions.origins["flag " + name] = shown
            }
          }
        }
      } catch {
        problems.append(error)
      }
    }
    return (definitions, problems)
  }

  private static func checkSchemaVersion(_ version: Int, file: String) throws(VectorError) {
    guard version == VectorFile.currentSchemaVersion else {
      throw .unsupportedSchemaVersion(file: file, version: version)
    }
  }

  /// Why a partner may not define this rule id or flag name, or `nil` when it may.
  private static func problem(defining name: String, as kind: String, in definitions: VectorDefinitions)
    -> String?
  {
    if let origin = definitions.origins[kind + " " + name] {
      return "\(origin) defines this \(kind) already; define each \(kind) once"
    }
    guard kind == "rule" else { return nil }
    if name.hasPrefix("AF-") {
      return
        "AF- rule ids are the bundled rules, defined by RULES.md only; give yours a prefix of your own, e.g. \"ACME-1\""
    }
    if !VectorDefinitions.isPartnerRuleID(name) {
      return "a rule id of your own is upper-case letters and digits in dash-separated parts, e.g. \"ACME-1\""
    }
    return nil
  }

  /// Why a partner flag cannot be defined as written: a bundled or repeated name, a name not spelled like a flag, or
  /// `rules` that no finding can carry.
  private static func flagProblems(
    _ name: String, _ flag: FlagRegistry.Flag, in definitions: VectorDefinitions, file: String
  )
    -> [VectorError]
  {
    func invalid(_ field: String, _ value: String, _ reason: String) -> VectorError {
      .invalidValue(file: file, vectorID: nil, field: field, value: value, reason: reason)
    }
    if FlagRegistry.bundled.flags[name] != nil {
      return [
        invalid(
          "flags.\(name)", name,
          "it is a bundled flag (Vectors/flags.json); flag your vectors with it as it is, or give yours a name of your own, e.g. \"acme-\(name)\""
        )
      ]
    }
    if let reason = problem(defining: name, as: "flag", in: definitions) {
      return [invalid("flags.\(name)", name, reason)]
    }
    if !VectorDefinitions.isFlagName(name) {
      return [
        invalid(
          "flags.\(name)", name,
          "a flag name is lower-case letters and digits joined by dashes, e.g. \"acme-token-leak\"")
      ]
    }
    return (flag.rules ?? []).enumerated().compactMap { index, rule in
      VectorDefinitions.isBundledRuleID(rule)
        ? nil
        : invalid(
          "flags.\(name).rules[\(index)]", rule,
          "a flag's rules are the rules of the findings that show it, and findings cite RULES.md's rules (e.g. AF-RU-2); leave \"rules\" out to show the flag with any finding"
        )
    }
  }
}

/// A partner's `rules.json`: the rule ids its own vectors cite, outside the bundled `AF-` namespace.
struct PartnerRulesFile: Sendable, Hashable, Decodable {
  /// The file's schema version; `1`, as for vector files.
  var schemaVersion: Int
  /// What the rules are, e.g. whose requirements.
  var description: String
  /// The rules by id, e.g. `ACME-1`.
  var rules: [String: PartnerRule]

  enum CodingKeys: String, CodingKey, CaseIterable {
    case schemaVersion, description, rules
  }

  init(from decoder: any Decoder) throws {
    let container = try decoder.strictContainer(keyedBy: CodingKeys.self)
    schemaVersion = try container.decode(Int.self, forKey: .schemaVersion)
    description = try container.decode(String.self, forKey: .description)
    rules = try container.decode([String: PartnerRule].self, forKey: .rules)
  }
}
