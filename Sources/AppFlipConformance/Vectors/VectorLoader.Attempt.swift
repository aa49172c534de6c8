extension VectorLoader {
  /// One vector's decoding, kept as a result, with its id read leniently for messages.
  struct Attempt: Decodable {
    var id: String?
    var result: Result<Vector, any Error>

    /// The `userInfo` key of the run's `Stop`, which ends the decoding at the next vector once it holds.
    static let stop = CodingUserInfoKey(rawValue: "appflip.stop")!

    /// Thrown to stop decoding a file because the run was asked to stop.
    struct Stopped: Error {}

    init(from decoder: any Decoder) throws {
      if (decoder.userInfo[Self.stop] as? Stop)?() == true { throw Stopped() }
      id = try? decoder.container(keyedBy: AnyCodingKey.self).decode(
        String.self, forKey: AnyCodingKey(stringValue: "id"))
      result = Result { try Vector(from: decoder) }
    }
  }
}
