extension VectorLoader {
  /// One vector's decoding, kept as a result, with its id read leniently for messages.
  struct Attempt: Decodable {
    var id: String?
    var result: Result<Vector, any Error>

    init(from decoder: any Decoder) throws {
      id = try? decoder.container(keyedBy: AnyCodingKey.self).decode(
        String.self, forKey: AnyCodingKey(stringValue: "id"))
      result = Result { try Vector(from: decoder) }
    }
  }
}
