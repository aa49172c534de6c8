extension VectorFilter {
  /// The first flag (`--flag`) that neither `Vectors/flags.json` nor a partner's `flags.json` loaded with the vectors
  /// defines, as a usage error listing the ones they do; `nil` when every flag is defined.
  ///
  /// It is checked after loading, not while parsing, since a partner's flags are known only once its files are read.
  package func unknownFlag(definedBy definitions: VectorDefinitions) -> UsageError? {
    let registry = definitions.registry
    guard let flag = flags.first(where: { registry.flags[$0] == nil }) else { return nil }
    var expected =
      "a bug class from Vectors/flags.json: " + FlagRegistry.bundled.flags.keys.sorted().joined(separator: ", ")
    if !definitions.flags.isEmpty {
      expected +=
        ", or one of your \(VectorDefinitions.flagsFileName): "
        + definitions.flags.keys.sorted().joined(separator: ", ")
    }
    return .invalidValue(option: "--flag", value: flag, expected: expected)
  }
}
