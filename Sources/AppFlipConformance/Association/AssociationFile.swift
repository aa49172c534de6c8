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

  /// Walks the `applinks` object, compiling patterns and noting each problem where it is.
  struct Reader {
    /// The problems found so far.
    var problems: [Problem] = []
    /// `applinks.substitutionVariables`.
    var variables: [String: [String]] = [:]

    /// The keys a component may have (applinks.Details.Components).
    static let componentKeys = ["/", "?", "#", "exclude", "comment", "caseSensitive", "percentEncoded"]

    /// What a JSON value is, for a sentence: `a string`, `an array`, ….
    static func kind(_ value: Any) -> String {
      switch value {
      case is String: "a string"
      case is [Any]: "an array"
      case is [String: Any]: "an object"
      case is NSNull: "null"
      case is Bool: "true or false"
      default: "a number"
      }
    }

    mutating func note(_ location: String, _ message: String, breaks: Bool) {
      problems.append(Problem(location: location, message: message, breaks: breaks))
    }

    /// Notes each key of `object` that Apple does not read there, with the nearest known one.
    mutating func unknownKeys(_ object: [String: Any], at location: String, known: [String]) {
      for key in object.keys.sorted() where !known.contains(key) {
        let guess = Spelling.closest(to: key, in: known, maxEdits: 2).map { " (did you mean \"\($0)\"?)" } ?? ""
        note(location, "has the key \(Quoted.string(key)), which Apple ignores\(guess)", breaks: false)
      }
    }

    /// A boolean setting, or `nil` when absent or of another type (noted).
    mutating func bool(_ object: [String: Any], _ key: String, at location: String) -> Bool? {
      guard let value = object[key] else { return nil }
      guard let flag = value as? Bool else {
        note(location, "has \"\(key)\" as \(Self.kind(value)); write true or false", breaks: true)
        return nil
      }
      return flag
    }

    /// `caseSensitive` and `percentEncoded` of a `defaults` object.
    mutating func defaults(_ value: Any?, at location: String) -> (caseSensitive: Bool?, percentEncoded: Bool?) {
      guard let value else { return (nil, nil) }
      guard let object = value as? [String: Any] else {
        note(location, "is \(Self.kind(value)), not an object; it is ignored", breaks: true)
        return (nil, nil)
      }
      unknownKeys(object, at: location, known: Self.componentKeys)
      return (bool(object, "caseSensitive", at: location), bool(object, "percentEncoded", at: location))
    }

    /// Every entry of `applinks.details`, after its `defaults` and `substitutionVariables`.
    mutating func entries(_ applinks: [String: Any]) throws(Unusable) -> [Entry] {
      unknownKeys(applinks, at: "applinks", known: ["apps", "details", "defaults", "substitutionVariables"])
      let global = defaults(applinks["defaults"], at: "applinks.defaults")
      if let value = applinks["substitutionVariables"] {
        if let object = value as? [String: Any] {
          for (name, values) in object.sorted(by: { $0.key < $1.key }) {
            let location = "applinks.substitutionVariables.\(name)"
            if name.contains(where: { "$()".contains($0) }) {
              note(location, "is a variable name with $, ( or ), which Apple does not allow", breaks: true)
            } else if let strings = values as? [String] {
              variables[name] = strings
            } else {
              note(location, "is \(Self.kind(values)), not an array of strings", breaks: true)
            }
          }
        } else {
          note("applinks.substitutionVariables", "is \(Self.kind(value)), not an object", breaks: true)
        }
      }
      guard let value = applinks["details"] else { return [] }
      guard let details = value as? [Any] else {
        throw Unusable(message: "has \"applinks.details\" as \(Self.kind(value)), not an array")
      }
      var entries: [Entry] = []
      for (index, item) in details.enumerated() {
        let location = "applinks.details[\(index)]"
        guard let object = item as? [String: Any] else {
          note(location, "is \(Self.kind(item)), not an object", breaks: true)
          continue
        }
        entries.append(entry(object, at: location, global: global))
      }
      return entries
    }

    /// One entry: its apps, and its components (or paths) with the settings that apply to them.
    mutating func entry(
      _ object: [String: Any], at location: String, global: (caseSensitive: Bool?, percentEncoded: Bool?)
    ) -> Entry {
      unknownKeys(object, at: location, known: ["appID", "appIDs", "components", "paths", "defaults", "comment"])
      var appIDs: [String] = []
      if let value = object["appIDs"] {
        if let ids = value as? [String] {
          appIDs += ids
        } else {
          note(location, "has \"appIDs\" as \(Self.kind(value)), not an array of strings", breaks: true)
        }
      }
      if let value = object["appID"] {
        if let id = value as? String {
          appIDs.append(id)
        } else {
          note(location, "has \"appID\" as \(Self.kind(value)), not a string", breaks: true)
        }
      }
      if object["appID"] == nil && object["appIDs"] == nil {
        note(location, "names no app: give \"appIDs\": [\"TEAMID.bundle.id\"]", breaks: true)
      }
      let own = defaults(object["defaults"], at: location + ".defaults")
      let caseSensitive = own.caseSensitive ?? global.caseSensitive ?? true
      let percentEncoded = own.percentEncoded ?? global.percentEncoded ?? true
      var entry = Entry(location: location, appIDs: appIDs, components: [], usesPaths: false)
      if let value = object["components"] {
        guard let list = value as? [Any] else {
          note(location, "has \"components\" as \(Self.kind(value)), not an array", breaks: true)
          return entry
        }
        for (index, item) in list.enumerated() {
          entry.components.append(
            component(
              item, at: "\(location).components[\(index)]", caseSensitive: caseSensitive,
              percentEncoded: percentEncoded))
        }
      } else if let value = object["paths"] {
        entry.usesPaths = true
        guard let list = value as? [Any] else {
          note(location, "has \"paths\" as \(Self.kind(value)), not an array", breaks: true)
          return entry
        }
        for (index, item) in list.enumerated() {
          entry.components.append(path(item, at: "\(location).paths[\(index)]"))
        }
      }
      return entry
    }

    /// One string of the older `paths`: a pattern for the path alone, case-sensitive, `NOT ` excluding (Apple: "Support
    /// Universal Links": "only the path component of the URL is used for comparison").
    mutating func path(_ item: Any, at location: String) -> Component {
      var component = Component(location: location, text: Self.json(item), percentEncoded: true)
      guard var text = item as? String else {
        note(location, "is \(Self.kind(item)), not a string", breaks: true)
        component.broken = true
        return component
      }
      if text.hasPrefix("NOT ") {
        component.exclude = true
        text.removeFirst(4)
      }
      component.path = try? AssociationPattern(text, ignoresCase: false, variables: nil)
      return component
    }

    /// One object of `components`, its patterns compiled with the settings that apply to it.
    mutating func component(_ item: Any, at location: String, caseSensitive: Bool, percentEncoded: Bool) -> Component {
      var component = Component(location: location, text: Self.json(item), percentEncoded: percentEncoded)
      guard let object = item as? [String: Any] else {
        note(location, "is \(Self.kind(item)), not an object", breaks: true)
        component.broken = true
        return component
      }
      unknownKeys(object, at: location, known: Self.componentKeys)
      let ignoresCase = !(bool(object, "caseSensitive", at: location) ?? caseSensitive)
      component.percentEncoded = bool(object, "percentEncoded", at: location) ?? percentEncoded
      component.exclude = bool(object, "exclude", at: location) ?? false
      func compile(_ key: String, _ value: Any) -> AssociationPattern? {
        guard let text = value as? String else {
          note(location, "has \"\(key)\" as \(Self.kind(value)), not a string", breaks: true)
          component.broken = true
          return nil
        }
        do {
          return try AssociationPattern(text, ignoresCase: ignoresCase, variables: variables)
        } catch {
          note(
            location,
            "has \"\(key)\" \(Quoted.string(text)) with $(\(error.name)), which neither substitutionVariables nor Apple defines",
            breaks: true)
          component.broken = true
          return nil
        }
      }
      component.path = object["/"].flatMap { compile("/", $0) }
      component.fragment = object["#"].flatMap { compile("#", $0) }
      if let query = object["?"] {
        if let items = query as? [String: Any] {
          component.query = .items(
            items.sorted { $0.key < $1.key }.compactMap { name, value in
              compile("?.\(name)", value).map { Item(name: name, pattern: $0) }
            })
        } else {
          component.query = compile("?", query).map(Query.pattern)
        }
      }
      return component
    }

    /// A JSON value as compact JSON with sorted keys, for messages.
    static func json(_ value: Any) -> String {
      if let string = value as? String { return Quoted.string(string) }
      guard JSONSerialization.isValidJSONObject(value),
        let data = try? JSONSerialization.data(withJSONObject: value, options: [.sortedKeys, .withoutEscapingSlashes])
      else { return String(describing: value) }
      return String(decoding: data, as: UTF8.self)
    }
  }
}
