/// The rules and flags a partner defines for its own vectors, in a `rules.json` and a `flags.json` next to them: a
/// namespace of its own beside the bundled one (rule ids `AF-…` from RULES.md, flags from `Vectors/flags.json`).
///
/// A partner rule id is upper-case letters and digits in dash-separated parts that does not start with `AF-`
/// (`ACME-1`, `ACME-RU-2`); a partner flag is a lower-case name the bundled registry does not use
/// (`acme-token-leak`). Definitions apply to every vector loaded with them.
package struct VectorDefinitions: Sendable, Hashable {
  /// The name of a file of partner rules next to a partner's vectors; never read as a vector file.
  package static let rulesFileName = "rules.json"
  /// The name of a file of partner flags next to a partner's vectors; never read as a vector file.
  package static let flagsFileName = "flags.json"

  /// The partner's rules by id.
  package var rules: [String: PartnerRule]
  /// The partner's flags by name.
  package var flags: [String: FlagRegistry.Flag]
  /// The file each rule (`rule ID`) and flag (`flag NAME`) was defined in, as shown in messages.
  var origins: [String: String] = [:]

  /// Creates a set of definitions.
  package init(rules: [String: PartnerRule] = [:], flags: [String: FlagRegistry.Flag] = [:]) {
    self.rules = rules
    self.flags = flags
  }

  /// Whether nothing is defined.
  package var isEmpty: Bool { rules.isEmpty && flags.isEmpty }

  /// The flags vectors loaded with these definitions may carry: the bundled registry's and the partner's.
  package var registry: FlagRegistry {
    var registry = FlagRegistry.bundled
    registry.flags.merge(flags) { bundled, _ in bundled }
    return registry
  }

  /// The partner rule a vector citing `cited` asserts its expectation under: of the rules defined here, the first of
  /// the highest level; `nil` when it cites none of them.
  func assertedRule(citedBy cited: [String]) -> PartnerRule.Citation? {
    var asserted: PartnerRule.Citation?
    for id in cited {
      guard let rule = rules[id], asserted.map({ rule.level > $0.level }) ?? true else { continue }
      asserted = PartnerRule.Citation(id: id, level: rule.level)
    }
    return asserted
  }

  /// Adds the definitions of separately loaded files; where both define a name, the first definition is kept.
  package mutating func merge(_ other: VectorDefinitions) {
    rules.merge(other.rules) { first, _ in first }
    flags.merge(other.flags) { first, _ in first }
    origins.merge(other.origins) { first, _ in first }
  }

  /// Whether a rule id is in the bundled namespace (`AF-` then letters then a number, e.g. `AF-RU-2`).
  static func isBundledRuleID(_ rule: String) -> Bool {
    let parts = rule.split(separator: "-", omittingEmptySubsequences: false)
    return parts.count == 3 && parts[0] == "AF" && !parts[1].isEmpty
      && parts[1].unicodeScalars.allSatisfy { ("A"..."Z").contains($0) } && Int(parts[2]) != nil
  }

  /// Whether a rule id is spelled as a partner's: upper-case letters and digits in at least two dash-separated parts,
  /// starting with a letter, outside the bundled `AF-` prefix (e.g. `ACME-1`).
  static func isPartnerRuleID(_ rule: String) -> Bool {
    let parts = rule.split(separator: "-", omittingEmptySubsequences: false)
    guard parts.count >= 2, parts[0] != "AF", let first = rule.unicodeScalars.first, ("A"..."Z").contains(first)
    else { return false }
    return parts.allSatisfy { part in
      !part.isEmpty && part.unicodeScalars.allSatisfy { ("A"..."Z").contains($0) || ("0"..."9").contains($0) }
    }
  }

  /// Whether a flag name is spelled as the bundled ones are: lower-case letters and digits joined by single dashes.
  static func isFlagName(_ name: String) -> Bool {
    let parts = name.split(separator: "-", omittingEmptySubsequences: false)
    return parts.allSatisfy { part in
      !part.isEmpty && part.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) }
    }
  }

  /// Why a vector may not cite this rule id, or `nil` when it may: a bundled id, or a partner id defined here.
  func problem(citing rule: String) -> String? {
    if Self.isBundledRuleID(rule) || rules[rule] != nil { return nil }
    if rule.hasPrefix("AF-") {
      return "a bundled rule id is AF-, upper-case letters, a dash and a number, as RULES.md writes them (e.g. AF-RU-2)"
    }
    guard Self.isPartnerRuleID(rule) else {
      return
        "a rule id is one from RULES.md (e.g. AF-RU-2) or your own, upper-case letters and digits in dash-separated parts (e.g. ACME-1), defined in a \(Self.rulesFileName) next to your vectors"
    }
    let hint = Spelling.closest(to: rule, in: rules.keys.sorted(), maxEdits: 2).map { " (did you mean \"\($0)\"?)" }
    return
      "no \(Self.rulesFileName) loaded with this vector defines it\(hint ?? ""); define it in a \(Self.rulesFileName) next to your vectors (Vectors/README.md, \"Your own rules and flags\"), or cite a rule from RULES.md"
  }

  /// Why a vector may not carry this flag, or `nil` when it may: a bundled flag, or a partner flag defined here.
  func problem(flagging flag: String) -> String? {
    if FlagRegistry.bundled.flags[flag] != nil || flags[flag] != nil { return nil }
    let known = registry.flags.keys.sorted()
    let hint = Spelling.closest(to: flag, in: known, maxEdits: 2).map { " (did you mean \"\($0)\"?)" } ?? ""
    return
      "no flag of that name is defined\(hint); use one of Vectors/flags.json's (\(FlagRegistry.bundled.flags.keys.sorted().joined(separator: ", ")))"
      + (flags.isEmpty ? "" : " or of your \(Self.flagsFileName) (\(flags.keys.sorted().joined(separator: ", ")))")
      + ", or define your own in a \(Self.flagsFileName) next to your vectors"
  }
}
