import Foundation

/// One pattern of an `apple-app-site-association` file, compiled: `*` matches zero or more characters, `?` exactly one
/// (so `?*` one or more), `$(name)` any one of a substitution variable's values, and every other character itself
/// (Apple: applinks.Details.Components, applinks.SubstitutionVariables).
///
/// A pattern is matched against a whole URL component as a nondeterministic automaton, one state set per character, so
/// no pattern backtracks: a 10 KB query against `*a*b*c*` costs one pass.
package struct AssociationPattern: Sendable, Hashable {
  /// The pattern as written, for messages.
  package var text: String
  /// Whether letters match in either case (`"caseSensitive": false`).
  package var ignoresCase: Bool
  private var automaton: Automaton
  /// The same pattern without regard to case, for a case-sensitive one: says when only case keeps it from matching.
  private var foldedAutomaton: Automaton?

  /// Why a pattern cannot be compiled: a substitution variable neither the file nor Apple defines.
  package struct UndefinedVariable: Error, Sendable, Hashable {
    /// The variable's name, as written between `$(` and `)`.
    package var name: String
  }

  /// The predefined substitution variables (applinks.SubstitutionVariables): every value of each.
  package static let predefined: [String: [String]] = {
    func scalars(_ range: ClosedRange<Unicode.Scalar>) -> [String] {
      (range.lowerBound.value...range.upperBound.value).compactMap(Unicode.Scalar.init).map { String($0) }
    }
    let upper = scalars("A"..."Z")
    let lower = scalars("a"..."z")
    let digit = scalars("0"..."9")
    return [
      "alpha": upper + lower, "upper": upper, "lower": lower, "alnum": upper + lower + digit, "digit": digit,
      "xdigit": digit + scalars("A"..."F") + scalars("a"..."f"),
      "region": Locale.Region.isoRegions.map(\.identifier),
      "lang": Locale.LanguageCode.isoLanguageCodes.map(\.identifier),
    ]
  }()

  /// Compiles `text`, with the file's own substitution variables first and Apple's predefined ones after them;
  /// `variables` `nil` reads `$(…)` as text (the older `paths`, which had no variables).
  package init(_ text: String, ignoresCase: Bool, variables: [String: [String]]? = [:]) throws(UndefinedVariable) {
    self.text = text
    self.ignoresCase = ignoresCase
    var pieces: [Piece] = []
    let scalars = Array(text.unicodeScalars)
    var index = 0
    while index < scalars.count {
      let scalar = scalars[index]
      if let variables, scalar == "$", index + 1 < scalars.count, scalars[index + 1] == "(",
        let close = scalars[(index + 2)...].firstIndex(of: ")")
      {
        let name = String(String.UnicodeScalarView(scalars[(index + 2)..<close]))
        guard let values = variables[name] ?? Self.predefined[name] else { throw UndefinedVariable(name: name) }
        // A variable's values may hold wildcards, never another variable (applinks.SubstitutionVariables).
        pieces.append(.oneOf(values.map { Self.pieces(Array($0.unicodeScalars)) }))
        index = close + 1
      } else {
        pieces += Self.pieces([scalar])
        index += 1
      }
    }
    automaton = Automaton(pieces, ignoresCase: ignoresCase)
    foldedAutomaton = ignoresCase ? nil : Automaton(pieces, ignoresCase: true)
  }

  /// A piece of a pattern: a character, a wildcard, or a variable's alternatives.
  private enum Piece {
    case scalar(Unicode.Scalar)
    case any
    case many
    case oneOf([[Piece]])
  }

  /// The pieces of literal text with wildcards (a variable's value, or one character of the pattern).
  private static func pieces(_ scalars: [Unicode.Scalar]) -> [Piece] {
    scalars.map { scalar in
      switch scalar {
      case "*": .many
      case "?": .any
      default: .scalar(scalar)
      }
    }
  }

  /// Whether the pattern matches the whole of `subject`.
  package func matches(_ subject: String) -> Bool { automaton.matches(subject) }

  /// Whether a case-sensitive pattern would match `subject` if it ignored case (`"caseSensitive": false`).
  package func matchesIgnoringCase(_ subject: String) -> Bool { foldedAutomaton?.matches(subject) ?? matches(subject) }

  /// Whether the pattern is only `*`s: it matches anything, even a component that cannot be read.
  package var matchesEverything: Bool { !text.isEmpty && text.unicodeScalars.allSatisfy { $0 == "*" } }

  /// The compiled states; state 0 accepts.
  private struct Automaton: Sendable, Hashable {
    var nodes: [Node] = [.accept]
    var start = 0
    var ignoresCase: Bool

    /// A state: what it reads and where it goes.
    enum Node: Sendable, Hashable {
      case accept
      case scalar(Unicode.Scalar, next: Int)
      case any(next: Int)
      case many(next: Int)
      case split([Int])
    }

    init(_ pieces: [Piece], ignoresCase: Bool) {
      self.ignoresCase = ignoresCase
      start = build(pieces, next: 0)
    }

    /// Adds the states of `pieces` in front of state `next` and returns the first one.
    mutating func build(_ pieces: [Piece], next: Int) -> Int {
      var next = next
      for piece in pieces.reversed() {
        switch piece {
        case .scalar(let scalar):
          for folded in (ignoresCase ? AssociationPattern.folded(scalar) : [scalar]).reversed() {
            nodes.append(.scalar(folded, next: next))
            next = nodes.count - 1
          }
        case .any:
          nodes.append(.any(next: next))
          next = nodes.count - 1
        case .many:
          nodes.append(.many(next: next))
          next = nodes.count - 1
        case .oneOf(let alternatives):
          let starts = alternatives.map { build($0, next: next) }
          nodes.append(.split(starts))
          next = nodes.count - 1
        }
      }
      return next
    }

    /// Whether the automaton reads the whole of `subject` into its accepting state.
    func matches(_ subject: String) -> Bool {
      var states = closure([start])
      for scalar in subject.unicodeScalars {
        for folded in ignoresCase ? AssociationPattern.folded(scalar) : [scalar] {
          var next: [Int] = []
          for state in states {
            switch nodes[state] {
            case .scalar(let expected, let target) where expected == folded: next.append(target)
            case .any(let target): next.append(target)
            case .many: next.append(state)
            default: break
            }
          }
          guard !next.isEmpty else { return false }
          states = closure(next)
        }
      }
      return states.contains(0)
    }

    /// The states reachable from `states` without reading a character.
    func closure(_ states: [Int]) -> [Int] {
      var seen = Set<Int>()
      var stack = states
      var result: [Int] = []
      while let state = stack.popLast() {
        guard seen.insert(state).inserted else { continue }
        result.append(state)
        switch nodes[state] {
        case .many(let next): stack.append(next)
        case .split(let targets): stack += targets
        default: break
        }
      }
      return result
    }
  }

  /// A scalar lower-cased, for matching without regard to case (one scalar can fold to several, `İ` to `i̇`).
  static func folded(_ scalar: Unicode.Scalar) -> [Unicode.Scalar] {
    Array(scalar.properties.lowercaseMapping.unicodeScalars)
  }
}
