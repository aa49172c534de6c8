import Foundation

extension JUnitReport {
  /// The report as UTF-8 bytes with each `<testcase>` element's byte range, for a writer that later overwrites parts
  /// of an element in place (the harness's crash journal); rendered once, without building a string. Without
  /// `metadata`, each case's level, spec, tags and file are left out.
  package static func bytesWithElements(
    _ results: [VectorResult], implementation: String, timestamp: Date = Date(), metadata: Bool = true
  ) -> (bytes: [UInt8], elements: [Range<Int>]) {
    var elements = Array(repeating: 0..<0, count: results.count)
    let xml = render(results, implementation: implementation, timestamp: timestamp, properties: []) { xml, index in
      let start = xml.count
      testcase(results[index], into: xml, metadata: metadata)
      elements[index] = start..<xml.count
    }
    return (xml.bytes, elements)
  }
}
