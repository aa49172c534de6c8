import Foundation

/// Finds the `public` and `open` declarations of a module's sources, named as `Docs/VERSIONING.md` lists them.
///
/// A scan of declaration lines, relying on `swift format`'s indentation: a declaration belongs to the innermost type or
/// extension declared above it with less indentation. Types are named by their path (`Vector.Step`), members by their
/// type's path, a dot and their Swift name: `Runner.adapter`, `Runner.run(_:)`, `Runner.init(adapter:configuration:)`,
/// `Level.<(_:_:)`. A declaration repeated under `#if` counts once.
enum PublicDeclarations {
  /// One public declaration.
  struct Declaration: Sendable, Hashable {
    /// Its name, e.g. `Runner.run(_:)`.
    var name: String
    /// Where it is: `path:line`.
    var location: String
  }

  /// A type or extension that opens a scope: `public struct Runner`, `extension Vector.Step`.
  static var scope: Regex<AnyRegexOutput> {
    try! Regex(
      #"^(?:@[\w]+(?:\([^)]*\))?\s+)*(?:(?:public|package|internal|fileprivate|private|final|indirect|open|nonisolated)\s+)*(struct|class|enum|protocol|actor|extension)\s+([A-Za-z_][\w.]*)"#
    )
  }

  /// A public or open declaration and what follows its keyword.
  static var declaration: Regex<AnyRegexOutput> {
    try! Regex(
      #"^(?:@[\w]+(?:\([^)]*\))?\s+)*(?:(?:static|final|class|mutating|nonmutating|convenience|override|required|indirect|nonisolated|lazy|dynamic)\s+)*(?:public|open)\s+(?:(?:static|final|class|mutating|nonmutating|convenience|override|required|indirect|nonisolated|lazy|dynamic|(?:private|fileprivate|internal|package)\(set\))\s+)*(struct|class|enum|protocol|actor|typealias|extension|var|let|func|init|subscript|associatedtype)\b(.*)$"#
    )
  }

  /// The public declarations of the Swift files under `Sources/<module>`.
  static func of(module: String) -> [Declaration] {
    SourceTree.swiftFiles(under: "Sources/\(module)").flatMap(of(file:))
  }

  /// The public declarations of one file.
  static func of(file: SourceTree.File) -> [Declaration] {
    let lines = file.lines.map(String.init)
    var scopes: [(indent: Int, path: String)] = []
    var found: [Declaration] = []
    let scope = Self.scope
    let declaration = Self.declaration
    for (index, line) in lines.enumerated() {
      let trimmed = line.drop { $0 == " " }
      let indent = line.count - trimmed.count
      if trimmed.isEmpty || trimmed.hasPrefix("//") || trimmed.hasPrefix("#") { continue }
      while let last = scopes.last, last.indent >= indent { scopes.removeLast() }
      let owner = scopes.last?.path
      if let match = try? declaration.wholeMatch(in: trimmed) {
        let keyword = String(match.output[1].substring ?? "")
        let rest = String(match.output[2].substring ?? "")
        let name = memberName(keyword: keyword, rest: rest, following: lines[index...])
        let location = "\(file.path):\(index + 1)"
        if keyword == "extension" {
          found.append(Declaration(name: "public extension \(name)", location: location))
        } else {
          found.append(Declaration(name: owner.map { "\($0).\(name)" } ?? name, location: location))
        }
      }
      if let match = try? scope.prefixMatch(in: trimmed) {
        let keyword = String(match.output[1].substring ?? "")
        let name = String(match.output[2].substring ?? "")
        guard !["func", "var", "let"].contains(name) else { continue }
        let path = keyword == "extension" ? name : (owner.map { "\($0).\(name)" } ?? name)
        scopes.append((indent, path))
      }
    }
    return found
  }

  /// A declaration's Swift name from what follows its keyword: `run(_:control:)`, `adapter`, `Profile`.
  static func memberName(keyword: String, rest: String, following lines: ArraySlice<String>) -> String {
    let text = rest.drop { $0 == " " }
    switch keyword {
    case "init", "subscript":
      return keyword + labels(of: lines, from: keyword)
    case "func":
      let word = text.prefix { $0.isLetter || $0.isNumber || $0 == "_" }
      let name = String(word.isEmpty ? text.prefix { !$0.isWhitespace && $0 != "(" } : word)
      let list = labels(of: lines, from: "func \(name)")
      guard word.isEmpty else { return name + list }
      // An operator's parameters have no argument labels.
      return name + "(" + String(repeating: "_:", count: list.filter { $0 == ":" }.count) + ")"
    default:
      return String(text.prefix { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "`" }).replacingOccurrences(
        of: "`", with: "")
    }
  }

  /// `(a:_:c:)`: the argument labels of the parameter list that starts after `keyword` (with the name, for a function)
  /// on the first line, which may continue over the next lines.
  static func labels(of lines: ArraySlice<String>, from keyword: String) -> String {
    let joined = lines.prefix(12).joined(separator: "\n").replacingOccurrences(of: "->", with: "  ")
    guard let start = joined.range(of: keyword) else { return "()" }
    var depth = 0
    var angle = 0
    var parameters: [String] = []
    var current = ""
    var inside = false
    for character in joined[start.upperBound...] {
      if !inside {
        if character == "<" { angle += 1 } else if character == ">" { angle -= 1 }
        if character == "(" && angle == 0 { inside = true }
        continue
      }
      switch character {
      case "(", "[", "{", "<": depth += 1
      case ")" where depth == 0:
        parameters.append(current)
        let names = parameters.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }.filter { !$0.isEmpty }
          .map { parameter in String(parameter.prefix { !$0.isWhitespace && $0 != ":" }) + ":" }
        return "(" + names.joined() + ")"
      case ")", "]", "}", ">": depth -= 1
      case "," where depth == 0:
        parameters.append(current)
        current = ""
        continue
      default: break
      }
      current.append(character)
    }
    return "()"
  }
}
