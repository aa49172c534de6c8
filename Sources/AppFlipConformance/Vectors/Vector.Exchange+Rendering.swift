extension Vector.Exchange {
  /// The request with the partner's configuration filled in (`set` values and `clientId`), or why the vector does not
  /// apply to it; the code, tokens and secret are filled in only as the request is sent.
  package func rendered(with configuration: PartnerConfiguration) throws(RenderedStep.SkipReason) -> Self {
    let plain = Substitution(configuration: configuration, encoded: false)
    var rendered = self
    rendered.set = []
    for parameter in set {
      var value: String?
      if let template = parameter.value { value = try plain.apply(template).get() }
      rendered.set.append(Vector.Parameter(try plain.apply(parameter.name).get(), value))
    }
    if let clientID { rendered.clientID = try plain.apply(clientID).get() }
    return rendered
  }
}
