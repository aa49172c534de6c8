import Foundation
import Testing

@testable import AppFlipConformance

/// The implementation's lines are read with `JSONSyntax`, the package's one JSON reader (issue 24), and decoded by hand:
/// each broken message is explained as it was when `JSONDecoder` read them (the expectations were recorded from that
/// reader), except what only a lenient reader let through (a trailing comma, a lone surrogate, a number beyond any
/// reader's range), now "not a JSON object", and a field that must hold an object, which it called "an array".
/// Version 0 stands for a `ready` message; `VERSION` in an expectation, for the version the line is read under.
@Suite("Subprocess protocol reading")
struct SubprocessProtocolReadingTests {
  static let cases: [([Int], String, String)] = [
    (
      [1], #"{"seq":1,"opened":null}"#,
      #"seq 1 isCodeRequest false: response error: the message has "opened"; a response carries either "opened" and "authorization", or "skipped", or "errored""#
    ),
    (
      [1], #"{"seq":1}"#,
      #"seq 1 isCodeRequest false: response error: the message has none of "opened" and "authorization", "skipped", "errored"; a response carries either "opened" and "authorization", or "skipped", or "errored""#
    ),
    (
      [1], #"{"seq":1,"x":1}"#,
      #"seq 1 isCodeRequest false: response error: field "x" is not part of protocol version VERSION; use only "seq", "opened", "authorization", "skipped", "errored""#
    ),
    (
      [1], #"{"seq":1,"opened":null,"authorization":[]}"#,
      #"seq 1 isCodeRequest false: response handled(opened: nil, authorization: [])"#
    ),
    (
      [1], #"{"seq":1,"opened":null,"authorization":null}"#,
      #"seq 1 isCodeRequest false: response error: field "authorization" is null; it must be an array"#
    ),
    (
      [1], #"{"seq":1,"opened":null,"authorization":{}}"#,
      #"seq 1 isCodeRequest false: response error: field "authorization" must be an array"#
    ),
    (
      [1], #"{"seq":1,"opened":null,"authorization":[{}]}"#,
      #"seq 1 isCodeRequest false: response error: field "authorization[0].clientId" is missing"#
    ),
    (
      [1], #"{"seq":1,"opened":null,"authorization":[1]}"#,
      #"seq 1 isCodeRequest false: response error: field "authorization[0]" must be an object"#
    ),
    (
      [1], #"{"seq":1,"opened":null,"authorization":[null]}"#,
      #"seq 1 isCodeRequest false: response error: field "authorization[0]" is null; it must be an object"#
    ),
    (
      [1], #"{"seq":1,"opened":null,"authorization":[{"clientId":"c","redirectUri":"r","scopes":["a"]}]}"#,
      #"seq 1 isCodeRequest false: response handled(opened: nil, authorization: [AppFlip.AuthorizationRequest(clientID: "c", redirectURI: "r", scopes: ["a"])])"#
    ),
    (
      [1], #"{"seq":1,"opened":null,"authorization":[{"clientId":"c","redirectUri":"r","scopes":[1]}]}"#,
      #"seq 1 isCodeRequest false: response error: field "authorization[0].scopes[0]" must be a string"#
    ),
    (
      [1], #"{"seq":1,"opened":null,"authorization":[{"clientId":"c","redirectUri":"r","scopes":[null]}]}"#,
      #"seq 1 isCodeRequest false: response error: field "authorization[0].scopes[0]" is null; it must be a string"#
    ),
    (
      [1], #"{"seq":1,"opened":null,"authorization":[{"clientId":"c","redirectUri":"r","scopes":"a"}]}"#,
      #"seq 1 isCodeRequest false: response error: field "authorization[0].scopes" must be an array"#
    ),
    (
      [1], #"{"seq":1,"opened":null,"authorization":[{"clientId":"c","redirectUri":"r","scopes":null}]}"#,
      #"seq 1 isCodeRequest false: response error: field "authorization[0].scopes" is null; it must be an array"#
    ),
    (
      [1], #"{"seq":1,"opened":null,"authorization":[{"clientId":1,"redirectUri":"r","scopes":[]}]}"#,
      #"seq 1 isCodeRequest false: response error: field "authorization[0].clientId" must be a string"#
    ),
    (
      [1], #"{"seq":1,"opened":null,"authorization":[{"clientId":"c","redirectUri":"r"}]}"#,
      #"seq 1 isCodeRequest false: response error: field "authorization[0].scopes" is missing"#
    ),
    (
      [1], #"{"seq":1,"opened":null,"authorization":[{"clientId":"c","redirectUri":"r","scopes":[],"z":1}]}"#,
      #"seq 1 isCodeRequest false: response error: field "authorization[0].z" is not part of protocol version VERSION; use only "clientId", "redirectUri", "scopes""#
    ),
    (
      [1], #"{"seq":1,"authorization":[]}"#,
      #"seq 1 isCodeRequest false: response error: the message has "authorization"; a response carries either "opened" and "authorization", or "skipped", or "errored""#
    ),
    ([1, 2], #"{"seq":1,"skipped":{"reason":"r"}}"#, #"seq 1 isCodeRequest false: response skipped(reason: "r")"#),
    (
      [1, 2], #"{"seq":1,"skipped":{"reason":1}}"#,
      #"seq 1 isCodeRequest false: response error: field "skipped.reason" must be a string"#
    ),
    (
      [1, 2], #"{"seq":1,"skipped":{"reason":null}}"#,
      #"seq 1 isCodeRequest false: response error: field "skipped.reason" is null; it must be a string"#
    ),
    (
      [1, 2], #"{"seq":1,"skipped":{}}"#,
      #"seq 1 isCodeRequest false: response error: field "skipped.reason" is missing"#
    ),
    (
      [1, 2], #"{"seq":1,"skipped":{"reason":"r","x":1}}"#,
      #"seq 1 isCodeRequest false: response error: field "skipped.x" is not part of protocol version VERSION; use only "reason""#
    ),
    (
      [1, 2], #"{"seq":1,"skipped":"r"}"#,
      #"seq 1 isCodeRequest false: response error: field "skipped" must be an object"#
    ),
    (
      [1, 2], #"{"seq":1,"skipped":null}"#,
      #"seq 1 isCodeRequest false: response error: field "skipped" is null; it must be an object"#
    ),
    (
      [1, 2], #"{"seq":1,"skipped":[]}"#,
      #"seq 1 isCodeRequest false: response error: field "skipped" must be an object"#
    ),
    ([1, 2], #"{"seq":1,"errored":{"message":"m"}}"#, #"seq 1 isCodeRequest false: response errored(message: "m")"#),
    (
      [1, 2], #"{"seq":1,"errored":{"message":[]}}"#,
      #"seq 1 isCodeRequest false: response error: field "errored.message" must be a string"#
    ),
    (
      [1, 2], #"{"seq":1,"errored":{"reason":"m"}}"#,
      #"seq 1 isCodeRequest false: response error: field "errored.reason" is not part of protocol version VERSION; use only "message""#
    ),
    (
      [1], #"{"seq":1,"skipped":{"reason":"r"},"errored":{"message":"m"}}"#,
      #"seq 1 isCodeRequest false: response error: the message has "skipped", "errored"; a response carries either "opened" and "authorization", or "skipped", or "errored""#
    ),
    (
      [1], #"{"seq":1,"opened":null,"skipped":{"reason":"r"}}"#,
      #"seq 1 isCodeRequest false: response error: the message has "opened", "skipped"; a response carries either "opened" and "authorization", or "skipped", or "errored""#
    ),
    ([1, 2], #"{"seq":1,"opened":null,"opened":null}"#, #"duplicate opened"#),
    ([1, 2], #"{"seq":1,"opened":{"url":"a","url":"b"}}"#, #"duplicate opened.url"#),
    ([1, 2], #"{"seq":1.5,"opened":null}"#, #"no integer seq"#),
    ([1, 2], #"{"seq":"1","opened":null}"#, #"no integer seq"#),
    ([1, 2], #"{"seq":null,"opened":null}"#, #"no integer seq"#),
    ([1, 2], #"{"opened":null}"#, #"no integer seq"#),
    ([1, 2], #"{"seq":12345678901234567890,"opened":null}"#, #"no integer seq"#),
    ([1, 2], #"{"seq":1,"opened":null} x"#, #"not a JSON object"#),
    ([1, 2], #"[1]"#, #"not a JSON object"#),
    ([1, 2], #""x""#, #"not a JSON object"#),
    ([1, 2], #"1"#, #"not a JSON object"#),
    ([1, 2], #"null"#, #"not a JSON object"#),
    ([1, 2], #"not json"#, #"not a JSON object"#),
    ([1, 2], "", #"not a JSON object"#),
    ([1, 2], #"{"seq":1,"opened":{"url":"\ud800"}}"#, #"not a JSON object"#),
    ([1, 2], #"{"seq":1,"opened":{"url":"u"},}"#, #"not a JSON object"#),
    ([1, 2], #"{"seq":1e400,"opened":null}"#, #"not a JSON object"#),
    (
      [1], #"{"seq":1,"opened":{"url":"u","universalLinksOnly":false},"x":null}"#,
      #"seq 1 isCodeRequest false: response error: field "x" is not part of protocol version VERSION; use only "seq", "opened", "authorization", "skipped", "errored""#
    ),
    (
      [1], #"{"seq":1,"codeRequest":null}"#,
      #"seq 1 isCodeRequest true: response error: field "codeRequest" is not part of protocol version VERSION; use only "seq", "opened", "authorization", "skipped", "errored""#
    ),
    ([2], #"{"seq":1,"opened":null}"#, #"seq 1 isCodeRequest false: response handled(opened: nil, authorization: [])"#),
    (
      [2], #"{"seq":1,"opened":{"url":"u"}}"#,
      #"seq 1 isCodeRequest false: response handled(opened: Optional(AppFlip.OpenedURL(url: "u", universalLinksOnly: nil, options: nil)), authorization: [])"#
    ),
    (
      [2], #"{"seq":1,"opened":{"url":"u","universalLinksOnly":true}}"#,
      #"seq 1 isCodeRequest false: response handled(opened: Optional(AppFlip.OpenedURL(url: "u", universalLinksOnly: Optional(true), options: nil)), authorization: [])"#
    ),
    (
      [2], #"{"seq":1,"opened":{"url":"u","universalLinksOnly":null}}"#,
      #"seq 1 isCodeRequest false: response handled(opened: Optional(AppFlip.OpenedURL(url: "u", universalLinksOnly: nil, options: nil)), authorization: [])"#
    ),
    (
      [2], #"{"seq":1,"opened":{"url":"u","universalLinksOnly":1}}"#,
      #"seq 1 isCodeRequest false: response error: field "opened.universalLinksOnly" must be true or false"#
    ),
    (
      [2], #"{"seq":1,"opened":{"url":"u","options":null}}"#,
      #"seq 1 isCodeRequest false: response handled(opened: Optional(AppFlip.OpenedURL(url: "u", universalLinksOnly: nil, options: nil)), authorization: [])"#
    ),
    (
      [2], #"{"seq":1,"opened":{"url":"u","options":{"a":null}}}"#,
      #"seq 1 isCodeRequest false: response error: field "opened.options.a" is null; it must be a string"#
    ),
    (
      [2], #"{"seq":1,"opened":{"url":"u","options":{"a":[1]}}}"#,
      #"seq 1 isCodeRequest false: response error: field "opened.options.a" must be a string"#
    ),
    (
      [2], #"{"seq":1,"opened":{"url":"u","options":{"a":{}}}}"#,
      #"seq 1 isCodeRequest false: response error: field "opened.options.a" must be a string"#
    ),
    (
      [2], #"{"seq":1,"opened":{"url":"u","options":[]}}"#,
      #"seq 1 isCodeRequest false: response error: field "opened.options" must be an object"#
    ),
    (
      [2], #"{"seq":1,"opened":{"url":"u","options":"x"}}"#,
      #"seq 1 isCodeRequest false: response error: field "opened.options" must be an object"#
    ),
    (
      [2], #"{"seq":1,"opened":{"url":1}}"#,
      #"seq 1 isCodeRequest false: response error: field "opened.url" must be a string"#
    ),
    (
      [2], #"{"seq":1,"opened":{"url":null}}"#,
      #"seq 1 isCodeRequest false: response error: field "opened.url" is null; it must be a string"#
    ),
    ([2], #"{"seq":1,"opened":{}}"#, #"seq 1 isCodeRequest false: response error: field "opened.url" is missing"#),
    (
      [2], #"{"seq":1,"opened":{"url":"u","x":1}}"#,
      #"seq 1 isCodeRequest false: response error: field "opened.x" is not part of protocol version VERSION; use only "url", "universalLinksOnly", "options""#
    ),
    ([2], #"{"seq":1,"opened":"u"}"#, #"seq 1 isCodeRequest false: response error: field "opened" must be an object"#),
    ([2], #"{"seq":1,"opened":[]}"#, #"seq 1 isCodeRequest false: response error: field "opened" must be an object"#),
    ([2], #"{"seq":1,"opened":true}"#, #"seq 1 isCodeRequest false: response error: field "opened" must be an object"#),
    ([2], #"{"seq":1,"opened":1}"#, #"seq 1 isCodeRequest false: response error: field "opened" must be an object"#),
    (
      [2], #"{"seq":1}"#,
      #"seq 1 isCodeRequest false: response error: the message has none of "opened", "skipped", "errored"; a response carries either "opened", or "skipped", or "errored""#
    ),
    (
      [2], #"{"seq":1,"x":1}"#,
      #"seq 1 isCodeRequest false: response error: field "x" is not part of protocol version VERSION; use only "seq", "opened", "skipped", "errored""#
    ),
    (
      [2], #"{"seq":1,"opened":null,"authorization":[]}"#,
      #"seq 1 isCodeRequest false: response error: field "authorization" is not part of protocol version VERSION; use only "seq", "opened", "skipped", "errored""#
    ),
    (
      [2], #"{"seq":1,"opened":null,"authorization":null}"#,
      #"seq 1 isCodeRequest false: response error: field "authorization" is not part of protocol version VERSION; use only "seq", "opened", "skipped", "errored""#
    ),
    (
      [2], #"{"seq":1,"opened":null,"authorization":{}}"#,
      #"seq 1 isCodeRequest false: response error: field "authorization" is not part of protocol version VERSION; use only "seq", "opened", "skipped", "errored""#
    ),
    (
      [2], #"{"seq":1,"opened":null,"authorization":[{}]}"#,
      #"seq 1 isCodeRequest false: response error: field "authorization" is not part of protocol version VERSION; use only "seq", "opened", "skipped", "errored""#
    ),
    (
      [2], #"{"seq":1,"opened":null,"authorization":[1]}"#,
      #"seq 1 isCodeRequest false: response error: field "authorization" is not part of protocol version VERSION; use only "seq", "opened", "skipped", "errored""#
    ),
    (
      [2], #"{"seq":1,"opened":null,"authorization":[null]}"#,
      #"seq 1 isCodeRequest false: response error: field "authorization" is not part of protocol version VERSION; use only "seq", "opened", "skipped", "errored""#
    ),
    (
      [2], #"{"seq":1,"opened":null,"authorization":[{"clientId":"c","redirectUri":"r","scopes":["a"]}]}"#,
      #"seq 1 isCodeRequest false: response error: field "authorization" is not part of protocol version VERSION; use only "seq", "opened", "skipped", "errored""#
    ),
    (
      [2], #"{"seq":1,"opened":null,"authorization":[{"clientId":"c","redirectUri":"r","scopes":[1]}]}"#,
      #"seq 1 isCodeRequest false: response error: field "authorization" is not part of protocol version VERSION; use only "seq", "opened", "skipped", "errored""#
    ),
    (
      [2], #"{"seq":1,"opened":null,"authorization":[{"clientId":"c","redirectUri":"r","scopes":[null]}]}"#,
      #"seq 1 isCodeRequest false: response error: field "authorization" is not part of protocol version VERSION; use only "seq", "opened", "skipped", "errored""#
    ),
    (
      [2], #"{"seq":1,"opened":null,"authorization":[{"clientId":"c","redirectUri":"r","scopes":"a"}]}"#,
      #"seq 1 isCodeRequest false: response error: field "authorization" is not part of protocol version VERSION; use only "seq", "opened", "skipped", "errored""#
    ),
    (
      [2], #"{"seq":1,"opened":null,"authorization":[{"clientId":"c","redirectUri":"r","scopes":null}]}"#,
      #"seq 1 isCodeRequest false: response error: field "authorization" is not part of protocol version VERSION; use only "seq", "opened", "skipped", "errored""#
    ),
    (
      [2], #"{"seq":1,"opened":null,"authorization":[{"clientId":1,"redirectUri":"r","scopes":[]}]}"#,
      #"seq 1 isCodeRequest false: response error: field "authorization" is not part of protocol version VERSION; use only "seq", "opened", "skipped", "errored""#
    ),
    (
      [2], #"{"seq":1,"opened":null,"authorization":[{"clientId":"c","redirectUri":"r"}]}"#,
      #"seq 1 isCodeRequest false: response error: field "authorization" is not part of protocol version VERSION; use only "seq", "opened", "skipped", "errored""#
    ),
    (
      [2], #"{"seq":1,"opened":null,"authorization":[{"clientId":"c","redirectUri":"r","scopes":[],"z":1}]}"#,
      #"seq 1 isCodeRequest false: response error: field "authorization" is not part of protocol version VERSION; use only "seq", "opened", "skipped", "errored""#
    ),
    (
      [2], #"{"seq":1,"authorization":[]}"#,
      #"seq 1 isCodeRequest false: response error: field "authorization" is not part of protocol version VERSION; use only "seq", "opened", "skipped", "errored""#
    ),
    (
      [2], #"{"seq":1,"skipped":{"reason":"r"},"errored":{"message":"m"}}"#,
      #"seq 1 isCodeRequest false: response error: the message has "skipped", "errored"; a response carries either "opened", or "skipped", or "errored""#
    ),
    (
      [2], #"{"seq":1,"opened":null,"skipped":{"reason":"r"}}"#,
      #"seq 1 isCodeRequest false: response error: the message has "opened", "skipped"; a response carries either "opened", or "skipped", or "errored""#
    ),
    (
      [2], #"{"seq":1.0,"opened":null}"#,
      #"seq 1 isCodeRequest false: response handled(opened: nil, authorization: [])"#
    ),
    (
      [2], #"{"seq":1e0,"opened":null}"#,
      #"seq 1 isCodeRequest false: response handled(opened: nil, authorization: [])"#
    ),
    (
      [2], #"{"seq":-1,"opened":null}"#,
      #"seq -1 isCodeRequest false: response handled(opened: nil, authorization: [])"#
    ),
    (
      [2], #"{"seq":1,"opened":{"url":"\u00e9\ud83d\ude00\/"}}"#,
      #"seq 1 isCodeRequest false: response handled(opened: Optional(AppFlip.OpenedURL(url: "é😀/", universalLinksOnly: nil, options: nil)), authorization: [])"#
    ),
    (
      [2], #"{"seq":1,"opened":{"url":"u","universalLinksOnly":false},"x":null}"#,
      #"seq 1 isCodeRequest false: response error: field "x" is not part of protocol version VERSION; use only "seq", "opened", "skipped", "errored""#
    ),
    (
      [2], " {\"seq\":1,\"opened\":null} ",
      #"seq 1 isCodeRequest false: response handled(opened: nil, authorization: [])"#
    ),
    (
      [2], "\u{FEFF}{\"seq\":1,\"opened\":null}",
      #"seq 1 isCodeRequest false: response handled(opened: nil, authorization: [])"#
    ),
    (
      [2], #"{"seq":1,"codeRequest":{"clientId":"c","redirectUri":"r","scopes":["a"]}}"#,
      #"seq 1 isCodeRequest true: code AuthorizationRequest(clientID: "c", redirectURI: "r", scopes: ["a"])"#
    ),
    (
      [2], #"{"seq":1,"codeRequest":{"clientId":"c","redirectURI":"r","scopes":["a"]}}"#,
      #"seq 1 isCodeRequest true: code error: field "codeRequest.redirectURI" is not part of protocol version VERSION; use only "clientId", "redirectUri", "scopes""#
    ),
    (
      [2], #"{"seq":1,"codeRequest":{"clientId":"c","redirectUri":"r"}}"#,
      #"seq 1 isCodeRequest true: code error: field "codeRequest.scopes" is missing"#
    ),
    (
      [2], #"{"seq":1,"codeRequest":null}"#,
      #"seq 1 isCodeRequest true: code error: field "codeRequest" is null; it must be an object"#
    ),
    (
      [2], #"{"seq":1,"codeRequest":"x"}"#,
      #"seq 1 isCodeRequest true: code error: field "codeRequest" must be an object"#
    ),
    (
      [2], #"{"seq":1,"codeRequest":[]}"#,
      #"seq 1 isCodeRequest true: code error: field "codeRequest" must be an object"#
    ),
    (
      [2], #"{"seq":1,"codeRequest":{"clientId":"c","redirectUri":"r","scopes":[]},"opened":null}"#,
      #"seq 1 isCodeRequest true: code error: field "opened" is not part of protocol version VERSION; use only "seq", "codeRequest""#
    ),
    (
      [2], #"{"seq":1,"codeRequest":{"clientId":"c","redirectUri":"r","scopes":[]},"x":1}"#,
      #"seq 1 isCodeRequest true: code error: field "x" is not part of protocol version VERSION; use only "seq", "codeRequest""#
    ),
    ([2], #"{"seq":1.5,"codeRequest":{"clientId":"c","redirectUri":"r","scopes":[]}}"#, #"no integer seq"#),
    ([2], #"{"codeRequest":{"clientId":"c","redirectUri":"r","scopes":[]}}"#, #"no integer seq"#),
    (
      [2], #"{"seq":1,"codeRequest":{"clientId":"c","redirectUri":"r","scopes":[]},"codeRequest":null}"#,
      #"duplicate codeRequest"#
    ),
    (
      [0],
      #"{"ready":true,"version":2,"implementation":{"name":"n","version":"1","language":"l"},"capabilities":{"configuration":true,"universalLinksOnly":false}}"#,
      #"ready n 1 (l, protocol 2) Capabilities(configuration: true, universalLinksOnly: false)"#
    ),
    (
      [0],
      #"{"ready":false,"version":2,"implementation":{"name":"n","version":"1","language":"l"},"capabilities":{"configuration":true,"universalLinksOnly":false}}"#,
      #"error: field "ready" must be true; an implementation that cannot start exits"#
    ),
    (
      [0],
      #"{"ready":true,"version":1,"implementation":{"name":"n","version":"1","language":"l"},"capabilities":{"configuration":true,"universalLinksOnly":false}}"#,
      #"ready n 1 (l, protocol 1) Capabilities(configuration: true, universalLinksOnly: false)"#
    ),
    (
      [0],
      #"{"ready":true,"version":3,"implementation":{"name":"n","version":"1","language":"l"},"capabilities":{"configuration":true,"universalLinksOnly":false}}"#,
      #"version 3"#
    ),
    (
      [0],
      #"{"ready":true,"version":"2","implementation":{"name":"n","version":"1","language":"l"},"capabilities":{"configuration":true,"universalLinksOnly":false}}"#,
      #"version none"#
    ),
    (
      [0],
      #"{"ready":true,"version":2.0,"implementation":{"name":"n","version":"1","language":"l"},"capabilities":{"configuration":true,"universalLinksOnly":false}}"#,
      #"ready n 1 (l, protocol 2) Capabilities(configuration: true, universalLinksOnly: false)"#
    ),
    (
      [0],
      #"{"ready":true,"implementation":{"name":"n","version":"1","language":"l"},"capabilities":{"configuration":true,"universalLinksOnly":false}}"#,
      #"version none"#
    ),
    (
      [0],
      #"{"ready":"yes","version":2,"implementation":{"name":"n","version":"1","language":"l"},"capabilities":{"configuration":true,"universalLinksOnly":false}}"#,
      #"error: field "ready" must be true or false"#
    ),
    (
      [0],
      #"{"ready":null,"version":2,"implementation":{"name":"n","version":"1","language":"l"},"capabilities":{"configuration":true,"universalLinksOnly":false}}"#,
      #"error: field "ready" must be true or false"#
    ),
    (
      [0],
      #"{"version":2,"implementation":{"name":"n","version":"1","language":"l"},"capabilities":{"configuration":true,"universalLinksOnly":false}}"#,
      #"error: field "ready" is missing"#
    ),
    (
      [0],
      #"{"ready":true,"version":2,"implementation":{"name":"n","version":1,"language":"l"},"capabilities":{"configuration":true,"universalLinksOnly":false}}"#,
      #"error: field "implementation.version" must be a string"#
    ),
    (
      [0],
      #"{"ready":true,"version":2,"implementation":{"name":"n","language":"l"},"capabilities":{"configuration":true,"universalLinksOnly":false}}"#,
      #"error: field "implementation.version" is missing"#
    ),
    (
      [0],
      #"{"ready":true,"version":2,"implementation":{"name":"n","version":"1","language":"l","x":1},"capabilities":{"configuration":true,"universalLinksOnly":false}}"#,
      #"error: field "implementation.x" is not part of protocol version 2; use only "name", "version", "language""#
    ),
    (
      [0],
      #"{"ready":true,"version":2,"implementation":"n","capabilities":{"configuration":true,"universalLinksOnly":false}}"#,
      #"error: field "implementation" must be an object"#
    ),
    (
      [0],
      #"{"ready":true,"version":2,"implementation":null,"capabilities":{"configuration":true,"universalLinksOnly":false}}"#,
      #"error: field "implementation" is null; it must be an object"#
    ),
    (
      [0],
      #"{"ready":true,"version":2,"implementation":{"name":"n","version":"1","language":"l"},"capabilities":{"configuration":1,"universalLinksOnly":false}}"#,
      #"error: field "capabilities.configuration" must be true or false"#
    ),
    (
      [0],
      #"{"ready":true,"version":2,"implementation":{"name":"n","version":"1","language":"l"},"capabilities":{"configuration":true}}"#,
      #"error: field "capabilities.universalLinksOnly" is missing"#
    ),
    (
      [0],
      #"{"ready":true,"version":2,"implementation":{"name":"n","version":"1","language":"l"},"capabilities":{"configuration":true,"universalLinksOnly":false,"interleaving":true}}"#,
      #"error: field "capabilities.interleaving" is not part of protocol version 2; use only "configuration", "universalLinksOnly""#
    ),
    (
      [0], #"{"ready":true,"version":2,"implementation":{"name":"n","version":"1","language":"l"},"capabilities":[]}"#,
      #"error: field "capabilities" must be an object"#
    ),
    (
      [0],
      #"{"ready":true,"version":2,"implementation":{"name":"n","version":"1","language":"l"},"capabilities":{"configuration":true,"universalLinksOnly":false},"x":1}"#,
      #"error: field "x" is not part of protocol version 2; use only "ready", "version", "implementation", "capabilities""#
    ),
    (
      [0],
      #"{"ready":true,"version":2,"version":2,"implementation":{"name":"n","version":"1","language":"l"},"capabilities":{"configuration":true,"universalLinksOnly":false}}"#,
      #"duplicate version"#
    ),
    ([0], #"[]"#, #"not a JSON object"#),
    ([0], #"x"#, #"not a JSON object"#),
  ]

  @Test("Reads each line, or says what breaks the protocol in the words it always used")
  func explains() {
    for (versions, line, expected) in Self.cases {
      for version in versions {
        let actual =
          version == 0 ? Self.explainReady(Array(line.utf8)) : Self.explain(Array(line.utf8), version: version)
        #expect(actual == expected.replacing("VERSION", with: "\(version)"), "version \(version): \(line)")
      }
    }
  }

  @Test(
    "Reads a string's characters byte for byte, its escapes decoded and nothing normalized",
    arguments: [
      (#""e\u0301""#, [0x65, 0xCC, 0x81]), ("\"e\u{301}\"", [0x65, 0xCC, 0x81]), (#""\u00e9""#, [0xC3, 0xA9]),
      (#""\u2028\t\"\\\/\b\f\n\r""#, [0xE2, 0x80, 0xA8, 0x09, 0x22, 0x5C, 0x2F, 0x08, 0x0C, 0x0A, 0x0D]),
      (#""\u0000x""#, [0x00, 0x78]), (#""\ud83d\ude00""#, [0xF0, 0x9F, 0x98, 0x80]),
      (#""\uD83D\uDE00a""#, [0xF0, 0x9F, 0x98, 0x80, 0x61]),
    ] as [(String, [UInt8])])
  func strings(json: String, bytes: [UInt8]) {
    guard case .string(let text)? = JSONSyntax.value(of: Array(json.utf8)) else {
      Issue.record("not read: \(json)")
      return
    }
    #expect(Array(text.utf8) == bytes, "\(json)")
  }

  @Test(
    "Refuses a line nested deeper than a message ever is as no JSON object: the reader's recursion stays off the stack's end"
  )
  func deepLine() {
    for depth in [SubprocessProtocol.lineDepth, 100_000] {
      let nesting = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
      let line = #"{"seq":1,"opened":"# + nesting + "}"
      #expect(Self.explain(Array(line.utf8), version: 2) == "not a JSON object", "\(depth) levels")
    }
    let deepest = #"{"seq":1,"opened":"# + String(repeating: "[", count: 14) + String(repeating: "]", count: 14) + "}"
    #expect(Self.explain(Array(deepest.utf8), version: 2).contains(#"field "opened" must be an object"#))
  }

  @Test("Writes each option value as it was sent: booleans, whole numbers as integers, other numbers, quoted strings")
  func options() throws {
    let line =
      #"{"seq":1,"opened":{"url":"u","options":{"a":true,"b":1,"c":1.5,"d":"x\"y","e":1.0,"f":1e2,"g":-0,"h":12345678901234567890,"i":1E-3}}}"#
    let response = try SubprocessProtocol.Incoming(Array(line.utf8), version: 2).response?.get()
    guard case .handled(let opened?, _)? = response else {
      Issue.record("not read: \(String(describing: response))")
      return
    }
    #expect(
      opened.options == [
        "a": "true", "b": "1", "c": "1.5", "d": #""x\"y""#, "e": "1", "f": "100", "g": "0",
        "h": "1.2345678901234567e+19", "i": "0.001",
      ])
  }

  static func explain(_ line: [UInt8], version: Int) -> String {
    let incoming: SubprocessProtocol.Incoming
    do throws(SubprocessProtocol.Unreadable) {
      incoming = try SubprocessProtocol.Incoming(line, version: version)
    } catch {
      switch error {
      case .notObject: return "not a JSON object"
      case .noSeq: return "no integer seq"
      case .duplicate(let field): return "duplicate \(field)"
      }
    }
    let head = "seq \(incoming.seq) isCodeRequest \(incoming.isCodeRequest): "
    switch (incoming.codeRequest, incoming.response) {
    case (.success(let request)?, _): return head + "code \(request)"
    case (.failure(let error)?, _): return head + "code error: \(error)"
    case (nil, .success(let response)?): return head + "response \(response)"
    case (nil, .failure(let error)?): return head + "response error: \(error)"
    case (nil, nil): return head + "neither"
    }
  }

  static func explainReady(_ line: [UInt8]) -> String {
    let message: JSONSyntax.Value
    do {
      message = try SubprocessProtocol.Incoming.object(line)
    } catch .duplicate(let field) {
      return "duplicate \(field)"
    } catch {
      return "not a JSON object"
    }
    guard let version = message["version"]?.integer, SubprocessProtocol.versions.contains(version) else {
      return "version \(message["version"]?.integer.map(String.init) ?? "none")"
    }
    do {
      let ready = try SubprocessProtocol.ready(message, version: version)
      return "ready \(ready.summary) \(ready.capabilities)"
    } catch {
      return "error: \(error)"
    }
  }
}
