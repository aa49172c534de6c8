#!/usr/bin/env python3
"""A second real OAuth 2.0 authorization endpoint: oauthlib's WebApplicationServer behind http.server, on 127.0.0.1.

oauthlib (not written here) parses the request, refuses duplicated parameters, checks response_type and scope, and
decides between an error page (FatalClientError: a bad client or redirect_uri) and an error redirect. This file only
supplies the RequestValidator: one client for Google's client id with the twelve App Flip URLs, compared exactly.

    python3 oauthlib_server.py [--loose-redirect] [--require-pkce]

--loose-redirect  misconfigured: redirect_uri compared without case and without a trailing slash or whitespace,
                  a common hand-written check
--require-pkce    the server requires PKCE (the run then needs --pkce)

Prints {"ready": true, "port": N, "endpoint": URL, "cookie": "session=…"} when ready; without that cookie the endpoint
redirects to its own /login page. Exits when stdin closes.
"""

import argparse
import json
import os
import threading
from http.server import ThreadingHTTPServer

os.environ["OAUTHLIB_INSECURE_TRANSPORT"] = "1"  # the endpoint itself is http on loopback

from oauthlib.oauth2 import RequestValidator, WebApplicationServer  # noqa: E402
from oauthlib.oauth2.rfc6749 import errors  # noqa: E402

from fixture_common import AnsweringHandler, wait_for_stdin_to_close  # noqa: E402

CLIENT_ID = "123456789012-appflip.apps.googleusercontent.com"
BUNDLES = ["com.google.Chromecast", "com.google.Chromecast.dev", "com.google.Chromecast.enterprise",
           "com.google.OPA", "com.google.OPA.dev", "com.google.OPA.enterprise"]
URIS = [f"https://{host}/a/{bundle}" for host in
        ("oauth-redirect.googleusercontent.com", "oauth-redirect-sandbox.googleusercontent.com") for bundle in BUNDLES]
COOKIE = "session=appflip-test-user"


class Validator(RequestValidator):
    def __init__(self, loose, pkce):
        self.loose = loose
        self.pkce = pkce

    def validate_client_id(self, client_id, request, *args, **kwargs):
        return client_id == CLIENT_ID

    def validate_redirect_uri(self, client_id, redirect_uri, request, *args, **kwargs):
        if self.loose:
            norm = lambda uri: uri.strip().rstrip("/").lower()  # noqa: E731
            return norm(redirect_uri) in [norm(uri) for uri in URIS]
        return redirect_uri in URIS

    def get_default_redirect_uri(self, client_id, request, *args, **kwargs):
        return None

    def validate_response_type(self, client_id, response_type, client, request, *args, **kwargs):
        return response_type == "code"

    def validate_scopes(self, client_id, scopes, client, request, *args, **kwargs):
        return all(scope == "devices" for scope in scopes)

    def get_default_scopes(self, client_id, request, *args, **kwargs):
        return ["devices"]

    def is_pkce_required(self, client_id, request):
        return self.pkce

    def save_authorization_code(self, client_id, code, request, *args, **kwargs):
        pass


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--loose-redirect", action="store_true")
    parser.add_argument("--require-pkce", action="store_true")
    args = parser.parse_args()
    server = WebApplicationServer(Validator(args.loose_redirect, args.require_pkce))

    class Handler(AnsweringHandler):

        def do_GET(self):
            path = self.path.split("?", 1)[0]
            if path == "/login":
                return self.answer(200, [("Content-Type", "text/html")],
                                   b"<form method=post><input name=u><input type=password name=p></form>")
            if path != "/oauth/authorize":
                return self.answer(404)
            if COOKIE not in (self.headers.get("Cookie") or ""):
                return self.answer(302, [("Location", "/login")])
            uri = f"http://127.0.0.1:{self.server.server_address[1]}{self.path}"
            try:
                scopes, credentials = server.validate_authorization_request(uri, "GET", None, dict(self.headers))
                headers, _, status = server.create_authorization_response(
                    uri, "GET", None, dict(self.headers), scopes, credentials)
                self.answer(status, list(headers.items()))
            except errors.FatalClientError as error:
                page = f"<html><body><h1>Error</h1><p>{error.description}</p></body></html>".encode()
                self.answer(400, [("Content-Type", "text/html")], page)
            except errors.OAuth2Error as error:
                self.answer(302, [("Location", error.in_uri(error.redirect_uri))])
            except ValueError as error:
                self.answer(400, [("Content-Type", "text/plain")], str(error).encode())

    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    httpd.daemon_threads = True
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    port = httpd.server_address[1]
    print(json.dumps({"ready": True, "port": port, "endpoint": f"http://127.0.0.1:{port}/oauth/authorize",
                      "cookie": COOKIE}), flush=True)
    wait_for_stdin_to_close()
    httpd.shutdown()


if __name__ == "__main__":
    main()
