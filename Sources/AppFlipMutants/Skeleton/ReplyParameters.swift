/// A reply's parameters in the order they are written, still unencoded.
public typealias ReplyParameters = [(name: String, value: String)]
