import AppFlipConformance
import Foundation
import Testing

@Suite("Decoding problem")
struct DecodingProblemTests {
  private struct Message: Decodable {
    enum Shade: String, Decodable { case light, dark }
    var name: String
    var count: Int
    var shade: Shade?
  }

  private func problem(_ json: String) -> DecodingProblem? {
    do {
      _ = try JSONDecoder().decode(Message.self, from: Data(json.utf8))
      return nil
    } catch {
      return DecodingProblem(error)
    }
  }

  @Test("A missing field is read by its case, with the field at the end of the path")
  func missing() throws {
    let found = try #require(problem(#"{"name": "a"}"#))
    guard case .missing(let path) = found else {
      Issue.record("got \(found)")
      return
    }
    #expect(path.map(\.stringValue) == ["count"])
  }

  @Test("A wrong type and a null are a wrong type, with the path and the expected type")
  func wrongTypeAndNull() throws {
    let wrong = try #require(problem(#"{"name": 1, "count": 1}"#))
    guard case .wrongType(let path, let type) = wrong else {
      Issue.record("got \(wrong)")
      return
    }
    #expect(path.map(\.stringValue) == ["name"])
    #expect(DecodingProblem.kind(of: type) == "a string")
    let null = try #require(problem(#"{"name": "a", "count": null}"#))
    guard case .wrongType(let nullPath, let nullType) = null else {
      Issue.record("got \(null)")
      return
    }
    #expect(nullPath.map(\.stringValue) == ["count"])
    #expect(DecodingProblem.kind(of: nullType) == "an integer")
  }

  @Test("A raw value outside a closed set names the set's type; the document's parse failure is unparsable")
  func corrupted() throws {
    let shade = try #require(problem(#"{"name": "a", "count": 1, "shade": "grey"}"#))
    guard case .corrupted(let path, let kind, _) = shade else {
      Issue.record("got \(shade)")
      return
    }
    #expect(path.map(\.stringValue) == ["shade"])
    #expect(kind == .notAllowed(typeName: "Shade"))
    let broken = try #require(problem("{"))
    guard case .corrupted(let brokenPath, let brokenKind, _) = broken else {
      Issue.record("got \(broken)")
      return
    }
    #expect(brokenPath.isEmpty)
    #expect(brokenKind == .unparsable)
  }

  @Test("Names each kind as the file formats document it")
  func kinds() {
    #expect(DecodingProblem.kind(of: Double.self) == "a number")
    #expect(DecodingProblem.kind(of: [Any].self) == "an array")
    #expect(DecodingProblem.kind(of: [String: Any].self) == "an object")
    #expect(DecodingProblem.kind(of: URL.self) == "a JSON value of the documented kind")
    #expect(DecodingProblem.kind(of: [String].self) == "an array of strings")
  }
}
