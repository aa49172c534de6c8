/// The association file as a run fetched (or read) it, once: how it was served and what it says (RULES.md AF-UL-1).
package struct AssociationSnapshot: Sendable, Hashable {
  /// Apple's limit on the file's size: 128 KB ("Support Universal Links", revision of 2016-04-01).
  package static let sizeLimit = 128 * 1024

  /// The URL fetched, or the file read.
  package var source: String
  /// Whether it was fetched (false: read from a local file, so how it is served is not known).
  package var fetched: Bool
  /// Why no answer came at all (an unreachable host, a TLS failure, no answer in time); one sentence.
  package var failure: String?
  /// The HTTP status of the answer.
  package var status: Int?
  /// The answer's `Location` header.
  package var location: String?
  /// The answer's `Content-Type` header.
  package var contentType: String?
  /// The body's size in bytes, as far as it was read.
  package var size = 0
  /// Whether the body is longer than the suite reads (`size` is then a lower bound).
  package var exceedsReadLimit = false
  /// The file, once its bytes were read and parsed.
  package var file: AssociationFile?
  /// Why the bytes are not an association file (`is not JSON: …`), when they are not.
  package var unusable: String?
  /// The answer to the same request with Apple's CDN's user agent, when the file was fetched.
  package var asApple: AppleAnswer?

  /// What the request as Apple's CDN sends it (`User-Agent: AASA-Bot/1.0.0`) got.
  package struct AppleAnswer: Sendable, Hashable {
    /// The user agent it was sent with.
    package static let userAgent = "AASA-Bot/1.0.0"
    /// Its status, when an answer came.
    package var status: Int?
    /// Whether its body is the same bytes as the first answer's.
    package var sameBody: Bool
    /// Why no answer came, when none did.
    package var failure: String?
  }

  /// Why the file's contents cannot be judged, naming the vector that says why: no answer, not a 200, too large, not
  /// an association file; `nil` when the file is there to read.
  package var unreadable: String? {
    if let failure { return "the association file could not be fetched: \(failure)" }
    if let status, status != 200 {
      return "\(Quoted.string(source)) answered HTTP \(status), not the file (association/file/served says more)"
    }
    if exceedsReadLimit || size > Self.sizeLimit {
      return "the file is larger than Apple's 128 KB limit, so Apple does not use it (association/file/size)"
    }
    if let unusable { return "the file \(unusable) (association/file/json says more)" }
    return nil
  }
}
