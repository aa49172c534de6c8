import Foundation

extension VectorLoader {
  /// The files one path given to the loader stands for: its vector files, and the partner definition files among
  /// them or next to it, each with the path shown in messages.
  struct Listing {
    var vectorFiles: [(URL, String)] = []
    var definitionFiles: [(URL, String)] = []
  }
}
