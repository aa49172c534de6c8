extension ToolOptions {
  /// One flag or valued option: its names (the first is the one `Parsed` files it under), its value and its help.
  package struct Option: Sendable {
    /// The names it is spelled with, e.g. `["--update", "--update-manifest"]`.
    package var names: [String]
    /// The value it takes, or `nil` for a flag.
    package var value: Value?
    /// Its help, one or more lines.
    package var help: String

    /// A flag spelled with any of `names`.
    package static func flag(_ names: String..., help: String) -> Option {
      Option(names: names, value: nil, help: help)
    }

    /// An option `name` taking a value shown as `placeholder` ("DIR") and described as `meaning` ("a folder").
    package static func valued(_ name: String, _ placeholder: String, meaning: String, help: String) -> Option {
      Option(names: [name], value: Value(placeholder: placeholder, meaning: meaning), help: help)
    }
  }
}
