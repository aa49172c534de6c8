/// Why an adapter could not answer a step at all, in one sentence, the error of that vector: a subprocess's (with what it
/// wrote to stderr meanwhile), a token run's (every secret described, never shown) or the association profile's.
package struct AdapterError: Error, Sendable, Hashable, DiagnosableError, CustomStringConvertible {
  /// One sentence on what went wrong and what to do; the runner prefixes it with "the implementation threw: ".
  package var message: String
  /// The implementation's stderr while it handled the step (the last 8 KB), or the server's words.
  package var diagnostics: String

  /// Creates an error.
  package init(message: String, diagnostics: String = "") {
    self.message = message
    self.diagnostics = diagnostics
  }

  /// The message.
  package var description: String { message }

  /// The token endpoint gave no answer to judge: token request `index` of a token vector, or (`nil`) the exchange of
  /// an endpoint vector's code (AF-TK-1). Where the sentence names the option to check, it names `--token-endpoint`.
  init(_ error: EndpointError, request index: Int?) {
    let which = index.map { "token request \($0)" } ?? "the exchange of its code (AF-TK-1)"
    let sentence: String
    switch error {
    case .unreachable(let url, let reason):
      sentence =
        "could not connect to the token endpoint \(Quoted.string(EndpointError.short(url))): \(reason); check that it"
        + " runs and that --token-endpoint names its host and port"
    case .notHTTP(let url, let start):
      sentence =
        "the token endpoint \(Quoted.string(EndpointError.short(url))) did not answer HTTP/1.x (it sent"
        + " \(Quoted.string(start))); check that --token-endpoint names the web server's port"
    default:
      sentence = "the token endpoint: \(error.description)"
    }
    self.init(message: "\(which): \(sentence)", diagnostics: error.diagnostics)
  }
}
