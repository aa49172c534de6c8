extension SubprocessProtocol {
  /// A line from the implementation, read in one pass: its envelope, and the code request (version 2) or the response it
  /// holds, or why that breaks the protocol.
  struct Incoming: Decodable {
    /// Its `seq`, and whether it is a code request.
    var envelope: Envelope
    /// The code request, when it is one under version 2.
    var codeRequest: Result<CodeRequest, any Error>?
    /// The response, otherwise.
    var response: Result<Response, any Error>?

    init(from decoder: any Decoder) throws {
      envelope = try Envelope(from: decoder)
      let version = decoder.userInfo[versionKey] as? Int ?? 1
      if envelope.isCodeRequest && version >= 2 {
        codeRequest = Result { try CodeRequest(from: decoder) }
      } else {
        response = Result { try Response(from: decoder) }
      }
    }
  }
}
