import Foundation

extension AssociationFile {
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
