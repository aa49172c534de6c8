import Foundation

/// The cookies of a curl/Netscape cookie jar (`curl -c`, browser exports), to send as a signed-in test user.
///
/// Each line is `domain TAB subdomains TAB path TAB secure TAB expiry TAB name TAB value`; `#HttpOnly_` before the
/// domain marks an HttpOnly cookie; other lines starting with `#`, and blank lines, are comments.
struct EndpointCookieJar: Sendable, Hashable {
  /// One cookie of the jar.
  struct Cookie: Sendable, Hashable {
    var domain: String
    var includeSubdomains: Bool
    var path: String
    var secure: Bool
    var expires: Int
    var name: String
    var value: String
  }

  /// The cookies in file order.
  var cookies: [Cookie]

  /// Parses a jar; a line that is not seven tab-separated fields is an error naming the file and line.
  init(text: String, file: String) throws(EndpointJarError) {
    cookies = []
    for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
      var line = Substring(raw.hasSuffix("\r") ? raw.dropLast() : raw)
      if line.hasPrefix("#HttpOnly_") {
        line = line.dropFirst("#HttpOnly_".count)
      } else if line.hasPrefix("#") || line.allSatisfy(\.isWhitespace) {
        continue
      }
      let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
      guard fields.count == 7, let expires = Int(fields[4]) else {
        throw .malformedLine(file: file, line: index + 1, text: String(line.prefix(120)))
      }
      cookies.append(
        Cookie(
          domain: fields[0].lowercased(), includeSubdomains: fields[1].uppercased() == "TRUE", path: String(fields[2]),
          secure: fields[3].uppercased() == "TRUE", expires: expires, name: String(fields[5]),
          value: String(fields[6])))
    }
  }

  /// Reads and parses a jar file.
  static func load(_ path: String) throws(EndpointJarError) -> EndpointCookieJar {
    let data: Data
    do {
      data = try InputFile.read(path, as: .endpointFile)
    } catch {
      throw .unreadable(file: path, reason: error.reason)
    }
    return try EndpointCookieJar(text: String(decoding: data, as: UTF8.self), file: path)
  }

  /// The `Cookie` header value for a request to `url` (RFC 6265 §5.4: domain, path and secure match, not expired),
  /// or `nil` when no cookie applies.
  func header(for url: URL, now: Date = Date()) -> String? {
    let origin = EndpointOrigin(url: url.absoluteString)
    var host = origin.host ?? ""
    if host.hasPrefix("[") && host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
    let path = url.path.isEmpty ? "/" : url.path
    let matching = cookies.filter { cookie in
      let domain = cookie.domain.hasPrefix(".") ? String(cookie.domain.dropFirst()) : cookie.domain
      let domainMatches =
        host == domain || ((cookie.includeSubdomains || cookie.domain.hasPrefix(".")) && host.hasSuffix("." + domain))
      let pathMatches =
        path == cookie.path
        || (path.hasPrefix(cookie.path)
          && (cookie.path.hasSuffix("/") || path.dropFirst(cookie.path.count).hasPrefix("/")))
      let fresh = cookie.expires == 0 || Double(cookie.expires) > now.timeIntervalSince1970
      return domainMatches && pathMatches && fresh && (!cookie.secure || origin.scheme == "https")
    }
    return matching.isEmpty ? nil : matching.map { "\($0.name)=\($0.value)" }.joined(separator: "; ")
  }
}

/// A cookie jar that cannot be used.
enum EndpointJarError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The file cannot be read.
  case unreadable(file: String, reason: String)
  /// A line is not a Netscape cookie line.
  case malformedLine(file: String, line: Int, text: String)

  /// One sentence quoting the file and what to do.
  var description: String {
    switch self {
    case .unreadable(let file, let reason):
      "cannot read the cookie jar \(Quoted.string(file)) (\(reason)); check the path (write one with curl -c FILE, or --login-command)"
    case .malformedLine(let file, let line, let text):
      "\(file):\(line): \(Quoted.string(text)) is not a Netscape cookie line (7 tab-separated fields: domain,"
        + " subdomains, path, secure, expiry, name, value); write the jar with curl -c or fix the line"
    }
  }
}
