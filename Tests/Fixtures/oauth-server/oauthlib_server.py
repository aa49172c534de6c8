#!/usr/bin/env python3
"""A second real OAuth 2.0 authorization endpoint: oauthlib's WebApplicationServer behind http.server, on 127.0.0.1.

oauthlib (not written here) parses the request, refuses duplicated parameters, checks response_type and scope, and
decides between an error page (FatalClientError: a bad client or redirect_uri) and an error redirect. This file only
supplies the RequestValidator: one client for Google's client id with the twelve App Flip URLs, compared exactly.

    python3 oauthlib_server.py [--loose-redirect] [--require-pkce]

--loose-redirect  misconfigured: redirect_uri compared without case and without a trailing slash or whitespace,
                  a common hand-written check
--require-pkce    the server requires PKCE (the run then needs --pkce)

The token endpoint (/oauth/token) is oauthlib's too, set up as a partner sets it up for Google's account linking: the
validator stores each code with its client, redirect_uri and PKCE challenge, authenticates Google's client by its
secret in the form body or in HTTP Basic, deletes a code once it is used, and keeps refresh tokens (rotated).

Prints {"ready": true, "port": N, "endpoint": URL, "tokenEndpoint": URL, "clientSecret": S, "cookie": "session=…"}
when ready; without that cookie the endpoint redirects to its own /login page. Exits when stdin closes.
"""

import argparse
import base64
import json
import os
import secrets
import threading
import time
from http.server import ThreadingHTTPServer
from urllib.parse import unquote

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


class Client:
    client_id = CLIENT_ID


class Validator(RequestValidator):
    def __init__(self, loose, pkce, secret):
        self.loose = loose
        self.pkce = pkce
        self.secret = secret
        self.codes = {}  # code -> what the authorization request was
        self.refresh_tokens = {}  # refresh token -> scopes
        self.lock = threading.Lock()

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
        with self.lock:
            self.codes[code["code"]] = {
                "client_id": client_id, "redirect_uri": request.redirect_uri, "scopes": request.scopes,
                "challenge": request.code_challenge, "method": request.code_challenge_method,
                "expires": time.time() + 600,
            }

    # The token endpoint.

    def client_authentication_required(self, request, *args, **kwargs):
        return True

    def authenticate_client(self, request, *args, **kwargs):
        client_id, secret = request.client_id, request.client_secret
        authorization = request.headers.get("Authorization", "")
        if authorization.startswith("Basic "):
            try:
                pair = base64.b64decode(authorization[6:]).decode()
            except ValueError:
                return False
            client_id, _, secret = (unquote(part) for part in pair.partition(":"))
        if client_id != CLIENT_ID or not secrets.compare_digest(secret or "", self.secret):
            return False
        request.client = Client()
        return True

    def validate_code(self, client_id, code, client, request, *args, **kwargs):
        with self.lock:
            saved = self.codes.get(code)
        if saved is None or saved["client_id"] != client_id or saved["expires"] < time.time():
            return False
        request.scopes = saved["scopes"]
        request.user = "appflip-test-user"
        return True

    def get_code_challenge(self, code, request):
        with self.lock:
            return self.codes.get(code, {}).get("challenge")

    def get_code_challenge_method(self, code, request):
        with self.lock:
            return self.codes.get(code, {}).get("method")

    def confirm_redirect_uri(self, client_id, code, redirect_uri, client, request, *args, **kwargs):
        with self.lock:
            return self.codes.get(code, {}).get("redirect_uri") == redirect_uri

    def validate_grant_type(self, client_id, grant_type, client, request, *args, **kwargs):
        return grant_type in ("authorization_code", "refresh_token")

    def invalidate_authorization_code(self, client_id, code, request, *args, **kwargs):
        with self.lock:
            self.codes.pop(code, None)

    def save_bearer_token(self, token, request, *args, **kwargs):
        with self.lock:
            if request.refresh_token:
                self.refresh_tokens.pop(request.refresh_token, None)  # rotated
            if "refresh_token" in token:
                self.refresh_tokens[token["refresh_token"]] = request.scopes

    def validate_refresh_token(self, refresh_token, client, request, *args, **kwargs):
        with self.lock:
            scopes = self.refresh_tokens.get(refresh_token)
        if scopes is None:
            return False
        request.user = "appflip-test-user"
        return True

    def get_original_scopes(self, refresh_token, request, *args, **kwargs):
        with self.lock:
            return self.refresh_tokens.get(refresh_token, ["devices"])


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--loose-redirect", action="store_true")
    parser.add_argument("--require-pkce", action="store_true")
    args = parser.parse_args()
    secret = secrets.token_urlsafe(24)
    server = WebApplicationServer(Validator(args.loose_redirect, args.require_pkce, secret))

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

        def do_POST(self):
            if self.path != "/oauth/token":
                return self.answer(404)
            body = self.rfile.read(int(self.headers.get("Content-Length") or 0)).decode()
            uri = f"http://127.0.0.1:{self.server.server_address[1]}{self.path}"
            headers, answer, status = server.create_token_response(uri, "POST", body, dict(self.headers))
            self.answer(status, list(headers.items()), answer.encode())

    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    httpd.daemon_threads = True
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    port = httpd.server_address[1]
    print(json.dumps({"ready": True, "port": port, "endpoint": f"http://127.0.0.1:{port}/oauth/authorize",
                      "tokenEndpoint": f"http://127.0.0.1:{port}/oauth/token", "clientSecret": secret,
                      "cookie": COOKIE}), flush=True)
    wait_for_stdin_to_close()
    httpd.shutdown()


if __name__ == "__main__":
    main()
