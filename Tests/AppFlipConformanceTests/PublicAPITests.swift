import Foundation
import Testing

/// The public API of the four library products is exactly what `Docs/VERSIONING.md` lists under "The public API", and
/// stays small: everything the executables, the mutants and the tests alone use is `package`.
@Suite("Public API")
struct PublicAPITests {
  /// The library products whose public declarations are a promise.
  static let products = ["AppFlip", "AppFlipReference", "AppFlipConformance", "AppFlipConformanceTesting"]

  /// The public declarations must stay below this many (types and members).
  static let limit = 250

  /// The names the section "The public API" of `Docs/VERSIONING.md` lists, by product (its `###` headings).
  ///
  /// Each list item names a type first, then its members relative to it: ``- `Runner`: `adapter`, `run(_:)` `` lists
  /// `Runner`, `Runner.adapter` and `Runner.run(_:)`.
  static func listed() throws -> [String: Set<String>] {
    let url = SourceTree.root.appendingPathComponent("Docs/VERSIONING.md")
    let text = try String(contentsOf: url, encoding: .utf8)
    var listed: [String: Set<String>] = [:]
    var inSection = false
    var product: String?
    for line in text.split(separator: "\n") {
      if line.hasPrefix("## ") {
        inSection = line == "## The public API"
        product = nil
      } else if inSection, line.hasPrefix("### ") {
        product = String(line.dropFirst(4)).trimmingCharacters(in: .whitespaces)
      } else if inSection, let product, line.hasPrefix("- `") {
        let names = line.split(separator: "`", omittingEmptySubsequences: false).enumerated()
          .filter { $0.offset % 2 == 1 }.map { String($0.element) }
        guard let type = names.first else { continue }
        listed[product, default: []].insert(type)
        for member in names.dropFirst() { listed[product, default: []].insert("\(type).\(member)") }
      }
    }
    return listed
  }

  /// Each product's public declarations, by name (a name declared twice under `#if` once), with a location.
  static func declared() -> [String: [String: String]] {
    var declared: [String: [String: String]] = [:]
    for product in products {
      for declaration in PublicDeclarations.of(module: product) {
        declared[product, default: [:]][declaration.name] = declaration.location
      }
    }
    return declared
  }

  @Test("Every public declaration of the four library products is listed in Docs/VERSIONING.md")
  func everyPublicDeclarationIsListed() throws {
    let listed = try Self.listed()
    let declared = Self.declared()
    for product in Self.products {
      let names = listed[product] ?? []
      for (name, location) in (declared[product] ?? [:]).sorted(by: { $0.key < $1.key }) where !names.contains(name) {
        Issue.record(
          "\(location): public \"\(name)\" is not listed under \"### \(product)\" in Docs/VERSIONING.md, \"The public API\"; make it `package` if only the tools and tests use it, or list it."
        )
      }
    }
  }

  @Test("Docs/VERSIONING.md lists no public declaration that no longer exists")
  func everyListedDeclarationExists() throws {
    let listed = try Self.listed()
    let declared = Self.declared()
    #expect(Set(listed.keys) == Set(Self.products), "Docs/VERSIONING.md, \"The public API\": one `###` per product")
    for product in Self.products {
      let names = declared[product] ?? [:]
      for name in (listed[product] ?? []).sorted() where names[name] == nil {
        Issue.record(
          "Docs/VERSIONING.md lists \"\(name)\" under \"### \(product)\", but Sources/\(product) declares no public \"\(name)\"; remove it from the list or fix its name."
        )
      }
    }
  }

  @Test("The four library products declare fewer than 250 public types and members")
  func publicSurfaceStaysSmall() {
    let count = Self.declared().values.map(\.count).reduce(0, +)
    #expect(
      count < Self.limit,
      "the four library products declare \(count) public types and members; keep them under \(Self.limit) by making tool-only symbols `package`"
    )
  }

  @Test("The scan names nested types, members, overloads and operators as Docs/VERSIONING.md lists them")
  func scanNamesDeclarations() {
    let source = """
      /// A sample.
      public struct Outer: Sendable {
        /// A nested type.
        public enum Inner: String {
          case one
          /// Its member.
          public var title: String { rawValue }
        }
        #if canImport(UIKit)
          public static let key = "a"
        #else
          public static let key = "b"
        #endif
        package var hidden = 0
        /// Two lines of parameters.
        public init(
          _ value: Int, label name: String, handler: @escaping @Sendable (String) -> Void = { _ in }
        ) {}
        public func run<T: Sequence>(_ items: T, limit: [String: Int]) -> Int { 0 }
        public static func < (lhs: Outer, rhs: Outer) -> Bool { true }
      }

      extension Outer {
        public var `default`: Int { 1 }
      }
      """
    let names = PublicDeclarations.of(file: SourceTree.File(path: "Sample.swift", text: source)).map(\.name)
    #expect(
      names == [
        "Outer", "Outer.Inner", "Outer.Inner.title", "Outer.key", "Outer.key", "Outer.init(_:label:handler:)",
        "Outer.run(_:limit:)", "Outer.<(_:_:)", "Outer.default",
      ])
  }
}
