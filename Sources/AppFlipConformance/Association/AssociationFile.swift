import Foundation

/// The universal links section of an `apple-app-site-association` file, read as Apple's documentation defines it
/// (Apple: applinks, applinks.Details, applinks.Details.Components, applinks.Defaults, applinks.SubstitutionVariables;
/// the older `paths` from "Support Universal Links").
///
/// Every pattern is compiled with the settings that apply to it: a component's own `caseSensitive` and
/// `percentEncoded`, else its entry's `defaults`, else the file's, else `true` ("the more specific definition overrides
/// the less specific"). An entry with `components` ignores its `paths`, as iOS 13 and later do.
package struct AssociationFile: Sendable, Hashable {
  /// The `applinks.details` entries, in order.
  package var entries: [Entry]
  /// What the file gets wrong that does not make it unreadable, in order.
  package var problems: [Problem]
  /// The app ids the file names under its other services (`webcredentials`, `appclips`, `activitycontinuation`).
  package var otherServices: [String: [String]]

  /// One `applinks.details` entry: the apps it names and their patterns, in order.
  package struct Entry: Sendable, Hashable {
    /// Where it is, e.g. `applinks.details[0]`.
    package var location: String
    /// Its `appIDs`, or its `appID`.
    package var appIDs: [String]
    /// Its `components`, or its `paths` read as components of a path only.
    package var components: [Component]
    /// Whether the patterns come from the older `paths`.
    package var usesPaths: Bool
  }

  /// One pattern object of `components` (or one string of `paths`): a URL matches it when it matches every part given.
  package struct Component: Sendable, Hashable {
    /// Where it is, e.g. `applinks.details[0].components[1]`.
    package var location: String
    /// The object (or `paths` string) as JSON, keys sorted, for messages.
    package var text: String
    /// `/`: the path's pattern; `nil` matches any path.
    package var path: AssociationPattern? = nil
    /// `?`: the query's pattern, or a pattern per query item; `nil` matches any query.
    package var query: Query? = nil
    /// `#`: the fragment's pattern; `nil` matches any fragment.
    package var fragment: AssociationPattern? = nil
    /// Whether a URL it matches is kept from opening the app (`exclude`, or a `paths` string starting `NOT `).
    package var exclude = false
    /// Whether the patterns are matched against the percent-encoded URL (`percentEncoded`, default true).
    package var percentEncoded: Bool
    /// Whether a part of the object is unusable (a wrong type, an undefined variable): it then matches nothing.
    package var broken = false
  }

  /// The `?` of a component: one pattern for the whole query, or a dictionary of query item names and patterns.
  package enum Query: Sendable, Hashable {
    /// The query as a whole.
    case pattern(AssociationPattern)
    /// Each named item (applinks.Details.Components.Query), by name in order.
    case items([Item])
  }

  /// One query item a `?` dictionary asks for.
  package struct Item: Sendable, Hashable {
    /// The item's name.
    package var name: String
    /// The pattern every value of it must match.
    package var pattern: AssociationPattern
  }

  /// What is wrong at one place of the file.
  package struct Problem: Sendable, Hashable {
    /// Where, e.g. `applinks.details[0].components[2]`.
    package var location: String
    /// What is wrong and what to write instead.
    package var message: String
    /// Whether it changes what the file matches (a wrong type, an undefined variable), rather than being ignored.
    package var breaks: Bool
  }

  /// Why the file cannot be read as an association file at all: one sentence.
  package struct Unusable: Error, Sendable, Hashable {
    /// The sentence, e.g. `is not JSON: line 3, column 5: …`.
    package var message: String
  }

  /// The app ids of the entries that name `appID`, exactly.
  package func entries(naming appID: String) -> [Entry] {
    entries.filter { $0.appIDs.contains { Array($0.utf8) == Array(appID.utf8) } }
  }

  /// Reads a file's bytes; `Unusable` when they are not a JSON object with an `applinks` object.
  package init(json data: Data) throws(Unusable) {
    if data.isEmpty { throw Unusable(message: "is empty, not JSON") }
    // Strict RFC 8259 first (a trailing comma, which some parsers let through, is not JSON); a key given twice is
    // read, and noted below. An untyped tree (`JSONSerialization`), not `JSONDecoder`: Apple's format is open, and a
    // value of an unexpected type is noted as a problem where it is, rather than refusing the whole file.
    let strict = JSONSyntax.problem(in: data)
    if let strict, strict.duplicateField == nil { throw Unusable(message: "is not JSON: \(strict)") }
    let object: Any
    do {
      object = try JSONSerialization.jsonObject(with: data)
    } catch {
      throw Unusable(message: "is not JSON")
    }
    guard let root = object as? [String: Any] else {
      throw Unusable(message: "is JSON \(Reader.kind(object)), not an object with \"applinks\"")
    }
    var reader = Reader()
    otherServices = [:]
    for service in ["webcredentials", "appclips", "activitycontinuation"] {
      if let apps = (root[service] as? [String: Any])?["apps"] as? [String] { otherServices[service] = apps }
    }
    guard let section = root["applinks"] else {
      throw Unusable(message: "has no \"applinks\" object, the only part Apple reads universal links from")
    }
    guard let applinks = section as? [String: Any] else {
      throw Unusable(message: "has \"applinks\" as \(Reader.kind(section)), not an object")
    }
    entries = try reader.entries(applinks)
    problems = reader.problems
    if let field = strict?.duplicateField {
      problems.insert(
        Problem(location: field, message: "is given twice, and Apple reads only one of the two", breaks: false), at: 0)
    }
  }
}
