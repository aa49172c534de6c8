#!/usr/bin/env python3
"""A tiny stand-in authorization endpoint (standard library only) for EndpointAdapter's unit tests, on 127.0.0.1.

Each path answers one way:
  /offsite       302 to Google's App Flip URL with a code and state
  /echo          302 to https://echo.example/ with the raw query, the Cookie and X-Test headers in the URL
  /same-origin   302 to /login?next=%2Foauth (the endpoint's own login page)
  /other-port    302 to http://127.0.0.1:1/cb (same host, another port: off-site)
  /relative-off  302 to //evil.example/cb (scheme-relative, off-site)
  /page          200 with a consent page
  /error         500 with a body
  /slow          answers after 5 seconds
  /loop          302 to the request URL itself
  /two           302 with two Location headers
  /bare          302 without a Location header
  /form          302 to the request's redirect_uri with a code, the state form-encoded (space as +), iss and session_state

Prints {"port": N, "closedPort": M} when ready (M: a port nothing listens on); exits when stdin closes.
"""

import json
import socket
import threading
import time
from urllib.parse import parse_qs, urlencode
from http.server import ThreadingHTTPServer

from fixture_common import AnsweringHandler, wait_for_stdin_to_close

OFFSITE = "https://oauth-redirect.googleusercontent.com/a/com.google.OPA?code=c%2F1&state=a%2Bb%20c"


class Handler(AnsweringHandler):

    def do_GET(self):
        path, _, query = self.path.partition("?")
        port = self.server.server_address[1]
        if path == "/offsite":
            self.answer(302, [("Location", OFFSITE)])
        elif path == "/echo":
            cookie = self.headers.get("Cookie", "")
            test = self.headers.get("X-Test", "")
            self.answer(302, [("Location", f"https://echo.example/?{query}#cookie={cookie}|x-test={test}")])
        elif path == "/same-origin":
            self.answer(302, [("Location", "/login?next=%2Foauth")])
        elif path == "/other-port":
            self.answer(302, [("Location", "http://127.0.0.1:1/cb")])
        elif path == "/relative-off":
            self.answer(302, [("Location", "//evil.example/cb")])
        elif path == "/page":
            self.answer(200, [("Content-Type", "text/html")], b"<h1>Allow Google to link your account?</h1>")
        elif path == "/error":
            self.answer(500, [("Content-Type", "text/plain")], b"Traceback: database is locked")
        elif path == "/slow":
            time.sleep(5)
            self.answer(200)
        elif path == "/loop":
            self.answer(302, [("Location", f"http://127.0.0.1:{port}{self.path}")])
        elif path == "/two":
            self.answer(302, [("Location", "https://a.example/1"), ("Location", "https://b.example/2")])
        elif path == "/bare":
            self.answer(302)
        elif path == "/form":
            params = parse_qs(query, keep_blank_values=True)
            reply = urlencode({"code": "c1", "state": params["state"][0], "iss": "http://127.0.0.1", "session_state": "x.y"})
            self.answer(302, [("Location", params["redirect_uri"][0] + "?" + reply)])
        else:
            self.answer(404)


def closed_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def main():
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    print(json.dumps({"port": server.server_address[1], "closedPort": closed_port()}), flush=True)
    wait_for_stdin_to_close()


if __name__ == "__main__":
    main()
