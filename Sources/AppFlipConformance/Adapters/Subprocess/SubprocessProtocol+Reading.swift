import AppFlip
import Foundation

extension SubprocessProtocol {
  /// The deepest a line may nest, where a message nests 4 levels (version 1's `authorization[i].scopes`): the reader
  /// recurses once a level, and a garbage line nested a few hundred deep would exhaust a 512 KB thread stack.
  static let lineDepth = 16

  /// Why a line from the implementation is no message at all.
  enum Unreadable: Error {
    /// It is not one JSON object.
    case notObject
    /// It has no integer `seq`.
    case noSeq
    /// It has this field (a path, `opened.url`) twice in one object, which a JSON reader would read as one.
    case duplicate(String)
  }

  /// Why a message breaks the protocol: the field it is in (empty for the whole message) and what is wrong with it.
  struct Violation: Error, CustomStringConvertible {
    var path: String
    var problem: String

    /// One clause naming the field, e.g. `field "opened.url" is missing`.
    var description: String { (path.isEmpty ? "the message" : "field \"\(path)\"") + " " + problem }
  }

  /// A line from the implementation under the negotiated version: its `seq`, and the code request (version 2) or the
  /// response it holds, or why that breaks the protocol.
  struct Incoming {
    var seq: Int
    /// Whether it has a `codeRequest` field.
    var isCodeRequest: Bool
    /// The code request, when it is one under version 2.
    var codeRequest: Result<AuthorizationRequest, Violation>?
    /// The response, otherwise.
    var response: Result<Response, Violation>?

    /// Reads a line with `JSONSyntax`, the package's JSON reader.
    init(_ line: [UInt8], version: Int) throws(Unreadable) {
      let message = try Self.object(line)
      guard let seq = message["seq"]?.integer else { throw .noSeq }
      self.seq = seq
      isCodeRequest = message["codeRequest"] != nil
      let reader = Reader(version: version)
      if isCodeRequest && version >= 2 {
        codeRequest = Result { () throws(Violation) in
          try reader.check(message, at: "", known: ["seq", "codeRequest"])
          return try reader.authorization(message["codeRequest"], at: "codeRequest")
        }
      } else {
        response = Result { () throws(Violation) in try reader.response(message) }
      }
    }

    /// The line as a JSON object.
    static func object(_ line: [UInt8]) throws(Unreadable) -> JSONSyntax.Value {
      guard let value = JSONSyntax.value(of: line, maxDepth: lineDepth) else {
        let field = JSONSyntax.problem(in: Data(line), maxDepth: lineDepth)?.duplicateField
        throw field.map(Unreadable.duplicate) ?? .notObject
      }
      guard case .object = value else { throw .notObject }
      return value
    }
  }

  /// Reads the implementation's `ready` message under the version it names (already checked), strictly.
  static func ready(_ message: JSONSyntax.Value, version: Int) throws(Violation) -> Ready {
    let reader = Reader(version: version)
    try reader.check(message, at: "", known: ["ready", "version", "implementation", "capabilities"])
    guard try reader.bool(message["ready"], at: "ready") else {
      throw Violation(path: "ready", problem: "must be true; an implementation that cannot start exits")
    }
    let about = message["implementation"]
    try reader.check(about, at: "implementation", known: ["name", "version", "language"])
    let capabilities = message["capabilities"]
    let implementation = Ready.Implementation(
      name: try reader.string(about?["name"], at: "implementation.name"),
      version: try reader.string(about?["version"], at: "implementation.version"),
      language: try reader.string(about?["language"], at: "implementation.language"))
    try reader.check(capabilities, at: "capabilities", known: ["configuration", "universalLinksOnly"])
    return Ready(
      version: version, implementation: implementation,
      capabilities: Ready.Capabilities(
        configuration: try reader.bool(capabilities?["configuration"], at: "capabilities.configuration"),
        universalLinksOnly: try reader.bool(capabilities?["universalLinksOnly"], at: "capabilities.universalLinksOnly"))
    )
  }

  /// Reads the parts of a message strictly, naming the field and the kind of value it must hold.
  private struct Reader {
    var version: Int

    /// A response: `opened` (and `authorization` in version 1), or `skipped`, or `errored`.
    func response(_ message: JSONSyntax.Value) throws(Violation) -> Response {
      let kinds = version >= 2 ? ["opened", "skipped", "errored"] : ["opened", "authorization", "skipped", "errored"]
      try check(message, at: "", known: ["seq"] + kinds)
      let present = kinds.filter { message[$0] != nil }
      if present == ["opened"] && version >= 2 {
        return .handled(opened: try opened(message["opened"]), authorization: [])
      } else if present == ["skipped"] {
        return .skipped(reason: try text(message["skipped"], at: "skipped", key: "reason"))
      } else if present == ["errored"] {
        return .errored(message: try text(message["errored"], at: "errored", key: "message"))
      } else if present == ["opened", "authorization"] {
        let opened = try opened(message["opened"])
        let items = try array(message["authorization"], at: "authorization")
        var requests: [AuthorizationRequest] = []
        for (index, item) in items.enumerated() {
          requests.append(try authorization(item, at: "authorization[\(index)]"))
        }
        return .handled(opened: opened, authorization: requests)
      }
      let handled = version == 1 ? "\"opened\" and \"authorization\"" : "\"opened\""
      let fields = present.isEmpty ? "none of \(handled), \"skipped\", \"errored\"" : Self.quoted(present)
      throw Violation(
        path: "", problem: "has \(fields); a response carries either \(handled), or \"skipped\", or \"errored\"")
    }

    /// `opened`: `null`, or the URL with how it was opened.
    func opened(_ value: JSONSyntax.Value?) throws(Violation) -> OpenedURL? {
      if case .null? = value { return nil }
      try check(value, at: "opened", known: ["url", "universalLinksOnly", "options"])
      let url = try string(value?["url"], at: "opened.url")
      var flag: Bool?
      if let given = value?["universalLinksOnly"], !given.isNull {
        flag = try bool(given, at: "opened.universalLinksOnly")
      }
      var options: [String: String]?
      if let given = value?["options"], !given.isNull {
        guard case .object(let fields) = given else { try refuse(given, at: "opened.options", as: "an object") }
        options = [:]
        for (name, item) in fields { options?[name] = try option(item, at: "opened.options.\(name)") }
      }
      return OpenedURL(url: url, universalLinksOnly: flag, options: options)
    }

    /// One value of `opened.options`, as written: `true`/`false`, a number's digits, or a quoted string.
    func option(_ value: JSONSyntax.Value, at path: String) throws(Violation) -> String {
      switch value {
      case .bool(let flag): return flag ? "true" : "false"
      case .number(let text): return value.integer.map(String.init) ?? Double(text).map { String($0) } ?? text
      default: return Quoted.string(try string(value, at: path))
      }
    }

    /// A code request: `{"clientId": …, "redirectUri": …, "scopes": […]}`.
    func authorization(_ value: JSONSyntax.Value?, at path: String) throws(Violation) -> AuthorizationRequest {
      try check(value, at: path, known: ["clientId", "redirectUri", "scopes"])
      let clientID = try string(value?["clientId"], at: path + ".clientId")
      let redirectURI = try string(value?["redirectUri"], at: path + ".redirectUri")
      var scopes: [String] = []
      for (index, item) in try array(value?["scopes"], at: path + ".scopes").enumerated() {
        scopes.append(try string(item, at: path + ".scopes[\(index)]"))
      }
      return AuthorizationRequest(clientID: clientID, redirectURI: redirectURI, scopes: scopes)
    }

    /// `{"reason": …}` or `{"message": …}`: an object of one string field.
    func text(_ value: JSONSyntax.Value?, at path: String, key: String) throws(Violation) -> String {
      try check(value, at: path, known: [key])
      return try string(value?[key], at: path + "." + key)
    }

    /// Refuses a value that is no object, or an object with a field outside `known`.
    func check(_ value: JSONSyntax.Value?, at path: String, known: [String]) throws(Violation) {
      guard case .object(let fields)? = value else { try refuse(value, at: path, as: "an object") }
      if let field = fields.first(where: { !known.contains($0.name) }) {
        throw Violation(
          path: path.isEmpty ? field.name : "\(path).\(field.name)",
          problem: "is not part of protocol version \(version); use only \(Self.quoted(known))")
      }
    }

    func string(_ value: JSONSyntax.Value?, at path: String) throws(Violation) -> String {
      guard case .string(let text)? = value else { try refuse(value, at: path, as: "a string") }
      return text
    }

    /// A boolean; `null` is "must be true or false" too (`JSONDecoder`'s words for a boolean).
    func bool(_ value: JSONSyntax.Value?, at path: String) throws(Violation) -> Bool {
      guard case .bool(let flag)? = value else {
        throw Violation(path: path, problem: value == nil ? "is missing" : "must be true or false")
      }
      return flag
    }

    func array(_ value: JSONSyntax.Value?, at path: String) throws(Violation) -> [JSONSyntax.Value] {
      guard case .array(let items)? = value else { try refuse(value, at: path, as: "an array") }
      return items
    }

    /// Throws why `value` is not `kind`: missing, null, or of another type.
    func refuse(_ value: JSONSyntax.Value?, at path: String, as kind: String) throws(Violation) -> Never {
      switch value {
      case nil: throw Violation(path: path, problem: "is missing")
      case .null?: throw Violation(path: path, problem: "is null; it must be \(kind)")
      default: throw Violation(path: path, problem: "must be \(kind)")
      }
    }

    /// `"a", "b"`.
    static func quoted(_ names: [String]) -> String {
      names.map { "\"\($0)\"" }.joined(separator: ", ")
    }
  }
}

extension JSONSyntax.Value {
  /// The number as an `Int`, when it is a whole one that fits, as `JSONDecoder` reads it (`1.0` and `1e2` too).
  var integer: Int? {
    guard case .number(let text) = self else { return nil }
    if let number = Int(text) { return number }
    guard let number = Double(text), number.rounded() == number else { return nil }
    return Int(exactly: number)
  }

  /// Whether it is `null`.
  var isNull: Bool { if case .null = self { true } else { false } }
}
