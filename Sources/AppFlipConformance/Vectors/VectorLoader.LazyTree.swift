import Foundation

extension VectorLoader {
  /// The parsed values of a file, built only when a message needs one: a value inside `vectors[i]` is read from that
  /// vector's bytes alone, so the problems of a file of 100 000 vectors never parse all of it (on Linux, Foundation's
  /// tree of a 25 MB file takes over a gigabyte). `JSONSerialization`, not `JSONDecoder`: a message quotes the value at
  /// a coding path whatever its type, which only an untyped tree holds.
  final class LazyTree {
    private let data: Data
    private var parsed: Any?
    /// The byte ranges of the top-level `vectors` array and of each of its elements, once looked for.
    private var ranges: JSONSyntax.ArrayRanges??

    init(_ data: Data) { self.data = data }

    /// The whole file's tree (an empty object when it is not JSON).
    var value: Any {
      if let parsed { return parsed }
      let tree = (try? JSONSerialization.jsonObject(with: data)) ?? [String: Any]()
      parsed = tree
      return tree
    }

    /// The value at `path`, or `nil` when there is none.
    func value(at path: [any CodingKey]) -> Any? {
      if ranges == nil { ranges = JSONSyntax.arrayRanges(of: "vectors", in: data) }
      var node: Any?
      var rest = path[...]
      let base = data.startIndex  // the ranges count from the first byte
      if let ranges = ranges ?? nil, path.first?.stringValue == "vectors", let index = path.dropFirst().first?.intValue,
        ranges.elements.indices.contains(index)
      {
        let element = ranges.elements[index]
        node = try? JSONSerialization.jsonObject(
          with: Data(data[(base + element.lowerBound)..<(base + element.upperBound)]), options: .fragmentsAllowed)
        rest = path.dropFirst(2)
      } else if let ranges = ranges ?? nil {
        // The envelope without its vectors.
        let envelope =
          data[..<(base + ranges.array.lowerBound)] + Data("[]".utf8) + data[(base + ranges.array.upperBound)...]
        node = try? JSONSerialization.jsonObject(with: Data(envelope))
      } else {
        node = value
      }
      for key in rest {
        if let index = key.intValue {
          guard let array = node as? [Any], array.indices.contains(index) else { return nil }
          node = array[index]
        } else {
          node = (node as? [String: Any])?[key.stringValue]
        }
      }
      return node
    }
  }
}
