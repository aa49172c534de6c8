import Foundation

extension VectorLoader {
  /// A path given to the loader, listed: a problem, or a vector file to decode.
  enum Listed {
    case problem(VectorError)
    case file(URL, String)

    var file: (URL, String)? {
      guard case .file(let url, let shown) = self else { return nil }
      return (url, shown)
    }
  }
}
