extension VectorLoader {
  /// A vector file's envelope, decoding each vector on its own so one bad vector does not hide the rest.
  struct Envelope: Decodable {
    var schemaVersion: Int
    var profile: VectorFile.Profile
    var area: String
    var description: String
    var vectors: [Attempt]

    enum CodingKeys: String, CodingKey, CaseIterable {
      case schemaVersion, profile, area, description, vectors
    }

    init(from decoder: any Decoder) throws {
      let container = try decoder.strictContainer(keyedBy: CodingKeys.self)
      schemaVersion = try container.decode(Int.self, forKey: .schemaVersion)
      profile = try container.decodeIfPresent(VectorFile.Profile.self, forKey: .profile) ?? .app
      area = try container.decode(String.self, forKey: .area)
      description = try container.decode(String.self, forKey: .description)
      vectors = try container.decode([Attempt].self, forKey: .vectors)
    }
  }
}
