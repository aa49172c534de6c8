/// A `flags.json` read strictly: a partner's flags next to its vectors, in the format of the bundled
/// `Vectors/flags.json` (`FlagRegistry`), with a misspelled field refused rather than ignored.
struct PartnerFlagsFile: Sendable, Decodable {
  /// The file's schema version; `1`, as for vector files.
  var schemaVersion: Int
  /// What the flags are, e.g. whose bug classes.
  var description: String
  /// The flags by name.
  var flags: [String: FlagRegistry.Flag]

  enum CodingKeys: String, CodingKey, CaseIterable {
    case schemaVersion, description, flags
  }

  /// The fields of one flag.
  enum FlagKeys: String, CodingKey, CaseIterable {
    case description, effect, links, rules, fields
  }

  /// One flag, decoded strictly.
  private struct StrictFlag: Decodable {
    var flag: FlagRegistry.Flag

    init(from decoder: any Decoder) throws {
      let container = try decoder.strictContainer(keyedBy: FlagKeys.self)
      flag = FlagRegistry.Flag(
        description: try container.decode(String.self, forKey: .description),
        effect: try container.decode(String.self, forKey: .effect),
        links: try container.decodeIfPresent([String].self, forKey: .links) ?? [],
        rules: try container.decodeIfPresent([String].self, forKey: .rules),
        fields: try container.decodeIfPresent([String].self, forKey: .fields))
    }
  }

  init(from decoder: any Decoder) throws {
    let container = try decoder.strictContainer(keyedBy: CodingKeys.self)
    schemaVersion = try container.decode(Int.self, forKey: .schemaVersion)
    description = try container.decode(String.self, forKey: .description)
    flags = try container.decode([String: StrictFlag].self, forKey: .flags).mapValues(\.flag)
  }
}
