#!/usr/bin/env python3
"""A correct App Flip handler, served over the appflip-conformance subprocess protocol.

Run it under the harness:

    swift run appflip-conformance --exec 'python3 Examples/python/appflip_handler.py'

The protocol (Docs/PROTOCOL.md), version 2: one JSON object per line on stdin and stdout; the handler asks
the harness for each code, and several links can be in flight at once. The handler itself is
`handle_link`; everything below "The protocol" is the adapter around it. Standard library only.

The rules are RULES.md's: `redirect_uri` is checked first and byte for byte; the query is split on `&`
only and each name and value is percent-decoded exactly once per RFC 3986 (`+` stays `+`); `client_id`
is compared byte for byte; reply values are percent-encoded leaving only A-Z a-z 0-9 - . _ ~ literal.
Everything works on UTF-8 bytes, so nothing is ever normalized.
"""

import json
import queue
import re
import sys
import threading
from urllib.parse import quote, unquote_to_bytes

PROTOCOL_VERSION = 2

# Google's twelve App Flip redirect URLs (App Flip for iOS, "Modify your authorization endpoint").
GOOGLE_REDIRECT_URIS = [
    f"https://{host}.googleusercontent.com/a/{bundle}"
    for host in ("oauth-redirect", "oauth-redirect-sandbox")
    for bundle in (
        "com.google.Chromecast",
        "com.google.Chromecast.dev",
        "com.google.Chromecast.enterprise",
        "com.google.OPA",
        "com.google.OPA.dev",
        "com.google.OPA.enterprise",
    )
]

BROKEN_ESCAPE = re.compile(rb"%(?![0-9A-Fa-f]{2})")  # a % not followed by two hex digits

# The App Flip error each failure of the OAuth server maps to (AF-RE-4).
OUTCOME_ERRORS = {
    "sign-in-failed": "cancelled",
    "offline": "cancelled",
    "timed-out": "cancelled",
    "account-disabled": "unrecoverable",
    "consent-denied": "access_denied",
}


# --- Percent-coding (RFC 3986 §2.1) -------------------------------------------------------------


def percent_decode(raw):
    """Decodes %XX escapes exactly once; None when an escape is broken. `+` stays `+`."""
    if BROKEN_ESCAPE.search(raw):
        return None
    return unquote_to_bytes(raw)  # RFC 3986 decoding: unlike unquote_plus, it leaves `+` alone


def percent_encode(value):
    """Encodes every UTF-8 byte but A-Z a-z 0-9 - . _ ~, so RFC 3986 and form decoders agree (AF-RE-6)."""
    return quote(value, safe="")  # safe="" encodes "/" too: only the unreserved characters stay literal


def utf8(data):
    """The text these bytes spell, or None when they are not valid UTF-8 (never replaced)."""
    if data is None:
        return None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return None


# --- Reading the link (AF-IN-4) -----------------------------------------------------------------


class Parameter:
    """One name=value pair: the name decoded (None if broken or not UTF-8), the value's decoded bytes."""

    def __init__(self, raw):
        name, equals, value = raw.partition(b"=")
        self.name = utf8(percent_decode(name))
        self.value = percent_decode(value if equals else b"")

    @property
    def text(self):
        return utf8(self.value)


def query_parameters(link):
    """The query from the first ? to the first #, split on & only, empty segments skipped."""
    data = link.encode("utf-8")
    data = data.split(b"#", 1)[0]
    if b"?" not in data:
        return []
    query = data.split(b"?", 1)[1]
    return [Parameter(segment) for segment in query.split(b"&") if segment]


def named(parameters, name):
    return [p for p in parameters if p.name == name]


# --- The handler --------------------------------------------------------------------------------


def reply_url(redirect_uri, parameters):
    """The validated redirect_uri untouched, then ? and the parameters, each value percent-encoded."""
    return redirect_uri + "?" + "&".join(f"{name}={percent_encode(value)}" for name, value in parameters)


def handle_link(link, client_id, allowed_redirect_uris, request_code):
    """Handles one incoming App Flip link; returns the URL to open, or None to open nothing.

    `request_code(client_id, redirect_uri, scopes)` asks the partner's OAuth server for a code; it answers
    {"result": "granted", "code": CODE} or {"result": R}, R one of the keys of OUTCOME_ERRORS.
    """
    parameters = query_parameters(link)

    # redirect_uri first: missing, duplicated, malformed or not allowed -> open nothing (AF-RU-4).
    redirects = named(parameters, "redirect_uri")
    if len(redirects) != 1:
        return None
    redirect_uri = redirects[0].text
    # Python's str == compares code points: no Unicode equivalence, so this is byte-exact (AF-RU-1).
    if redirect_uri is None or redirect_uri not in allowed_redirect_uris:
        return None

    states = named(parameters, "state")
    state = states[0].text if len(states) == 1 and states[0].text else None

    def reject(reason):  # AF-V-2: invalid_request to the valid redirect_uri, with state when there was one.
        reply = [("error", "invalid_request"), ("error_description", "Invalid request: " + reason)]
        if state is not None:
            reply.append(("state", state))
        return reply_url(redirect_uri, reply)

    client_ids = named(parameters, "client_id")
    if len(client_ids) > 1:
        return reject("client_id is duplicated")
    if not client_ids or not client_ids[0].text:
        return reject("client_id is missing")
    if client_ids[0].value != client_id.encode("utf-8"):  # byte for byte (AF-IN-5)
        return reject("client_id is not Google's")
    if len(states) > 1:
        return reject("state is duplicated")
    if state is None:
        return reject("state is missing")

    scope_parameters = named(parameters, "scope")
    if len(scope_parameters) > 1:
        return reject("scope is duplicated")
    scopes = []
    if scope_parameters:
        scope = scope_parameters[0].text
        if scope is None:
            return reject("scope is malformed")
        scopes = [s for s in scope.split(" ") if s]

    answer = request_code(client_ids[0].text, redirect_uri, scopes)
    if answer["result"] == "granted":
        return reply_url(redirect_uri, [("code", answer["code"]), ("state", state)])
    # Errors go back to redirect_uri too, with state (AF-RE-4, AF-RE-5).
    return reply_url(redirect_uri, [("error", OUTCOME_ERRORS.get(answer["result"], "cancelled")), ("state", state)])


# --- The protocol -------------------------------------------------------------------------------


def run(message, request_code):
    """Answers one run message: runs the handler, whose OAuth server is `request_code` (the harness answers
    for it with the vector's scripted outcome), and reports what it opened."""
    configuration = message["configuration"]
    url = handle_link(
        message["link"], configuration["clientId"], configuration["allowedRedirectUris"], request_code
    )
    opened = None if url is None else {"url": url, "universalLinksOnly": True}
    return {"seq": message["seq"], "opened": opened}


READY = {
    "ready": True,
    "version": PROTOCOL_VERSION,
    "implementation": {"name": "appflip-python-example", "version": "1.0.0", "language": "python"},
    "capabilities": {"configuration": True, "universalLinksOnly": True},
}

_stdout = threading.Lock()  # handlers answer from their own threads: one whole line at a time


def send(message):
    # ensure_ascii keeps the line pure ASCII; \u escapes carry any string exactly.
    line = json.dumps(message, ensure_ascii=True, separators=(",", ":")) + "\n"
    with _stdout:
        sys.stdout.write(line)
        sys.stdout.flush()


def serve(answer=run, ready=READY):
    """Reads one message per line until stop or end of input; answers each run message with
    `answer(message, request_code)`.

    A link is handled on this thread, which costs nothing but the handler itself. While its handler waits
    for its code, `request_code` goes on reading: the code answer returns to the handler, and a link that
    arrives meanwhile (as in an app, a second link can arrive while the first waits for its OAuth server)
    is handled on a thread of its own, whose code answer this thread hands over. Nothing is shared between
    the handlers but stdout.
    """
    messages = (json.loads(line) for line in sys.stdin.buffer if line.strip())
    waiting = {}  # seq -> the queue its code answer goes to, for a link handled on a thread of its own

    def handle(message, receive_code):
        seq = message["seq"]

        def request_code(client_id, redirect_uri, scopes):  # the OAuth server: the harness answers for it
            send({"seq": seq, "codeRequest": {"clientId": client_id, "redirectUri": redirect_uri, "scopes": scopes}})
            return receive_code(seq)

        try:
            response = answer(message, request_code)
        except Exception as error:  # report, do not die: the harness marks this vector as error
            response = {"seq": seq, "errored": {"message": f"{type(error).__name__}: {error}"}}
        waiting.pop(seq, None)
        send(response)

    def read_until_code(seq):  # for the link on this thread: read on, serving what arrives meanwhile
        for message in messages:
            if message.get("cmd") == "code" and message["seq"] == seq:
                return message["outcome"]
            dispatch(message, thread_is_free=False)
        sys.exit(0)  # end of input: the harness is gone

    def dispatch(message, thread_is_free):
        command = message.get("cmd")
        if command == "start":
            if PROTOCOL_VERSION not in message.get("versions", [message.get("version")]):
                sys.exit(f"appflip_handler.py speaks protocol version {PROTOCOL_VERSION}, got {message}")
            send(ready)
        elif command == "run" and thread_is_free:
            handle(message, read_until_code)
        elif command == "run":  # the link on this thread waits for its code: this one gets a thread
            waiting[message["seq"]] = queue.SimpleQueue()
            threading.Thread(target=handle, args=(message, lambda seq: waiting[seq].get()), daemon=True).start()
        elif command == "code":
            waiting[message["seq"]].put(message["outcome"])
        elif command == "stop":
            sys.exit(0)

    for message in messages:
        dispatch(message, thread_is_free=True)


if __name__ == "__main__":
    serve()
