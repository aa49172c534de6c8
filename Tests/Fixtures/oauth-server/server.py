#!/usr/bin/env python3
"""A real OAuth 2.0 authorization server (Authlib + Flask + SQLAlchemy) on 127.0.0.1, for the endpoint profile.

It registers one confidential client for Google's client id with the App Flip redirect URLs (or a misconfigured
set), signs in a test user, and prints one JSON line when it is ready:

    {"ready": true, "port": 41234, "endpoint": "http://127.0.0.1:41234/oauth/authorize",
     "cookie": "session=…", "redirectUris": [...]}

Send the cookie as `Cookie:` header (appflip-conformance --endpoint URL --cookie 'session=…'). The signed-in user
consents automatically; without the cookie the endpoint redirects to its own /login page (same origin).

The token endpoint is set up as a partner sets it up for Google's account linking: /oauth/token takes the client's
credentials in the form body (or, with --basic-auth, only in HTTP Basic), exchanges codes (PKCE checked when the
request had a challenge) and refresh tokens (rotated), and the ready line carries "tokenEndpoint" and "clientSecret"
(appflip-conformance --token-endpoint URL, the secret in APPFLIP_CLIENT_SECRET).

Redirect URIs are checked by Authlib's own code: `OAuth2ClientMixin.check_redirect_uri`, an exact `in` test.

The server exits when its standard input closes, or on SIGTERM / SIGINT.

    python3 server.py [--client-id ID] [--no-sandbox | --project-urls-only [--project-id ID]] [--unguarded]
                      [--open-redirect-errors] [--trim-client-id] [--parsed-redirect]
                      [--session-requests N [--expired-page consent]]
                      [--basic-auth] [--code-lifetime S] [--reusable-code] [--unbound-code] [--project-bound-code]
                      [--any-secret] [--token-shape no-token-type|form|cacheable] [--issued FILE]

--open-redirect-errors and --trim-client-id are the misconfigurations real servers showed (issue 9): an error sent to
the request's redirect_uri before it was validated (pyop, Glewlwyd's CVE-2024-25715), and a client_id trimmed of
whitespace before the lookup (django-oidc-provider). --parsed-redirect compares redirect_uri after a WHATWG-style parse
(tab, CR and LF removed) and a percent-decoding, as a server that checks `new URL(uri)` with its path decoded does.

The token endpoint's misconfigurations, one per bug class of issue 26: --reusable-code never deletes a code (it can be
used twice); --unbound-code stores no redirect_uri with a code (Authlib then takes any or none); --project-bound-code
stores the partner's /r/PROJECT_ID URL with each code, the web-linking URL a partner registered first, so the App Flip
URL the code was issued for is refused; --any-secret accepts any client secret; --token-shape answers without
token_type, as form data, or without Cache-Control: no-store.

--issued FILE appends every code, access token and refresh token the server issues, one a line, for a test that
checks no report shows one.

--session-requests N ends the test user's session after N authorization requests: from then on the endpoint
redirects to /login (or, with --expired-page consent, shows its consent page), as a staging session that expires
in the middle of a run does.

Install: python3 -m pip install -r requirements.txt
"""

import gc

# No cycle collection while the libraries load and the server is set up (~30 % of its start-up CPU; it starts
# dozens of times per `swift test`); it is back on, with what is loaded frozen, before the server serves.
gc.disable()

import argparse
import json
import logging
import secrets
import signal
import sys
import threading
import time
from urllib.parse import unquote, urlencode

from authlib.integrations.flask_oauth2 import AuthorizationServer
from authlib.integrations.sqla_oauth2 import (
    OAuth2AuthorizationCodeMixin,
    OAuth2ClientMixin,
    OAuth2TokenMixin,
    create_query_client_func,
    create_save_token_func,
)
from authlib.oauth2 import OAuth2Error
from authlib.oauth2.rfc6749 import InvalidRequestError, grants
from authlib.oauth2.rfc7636 import CodeChallenge
from flask import Flask, Response, redirect, request, session, url_for
from sqlalchemy import Column, ForeignKey, Integer, String, create_engine
from sqlalchemy.orm import declarative_base, scoped_session, sessionmaker
from sqlalchemy.pool import StaticPool
from werkzeug.serving import make_server

DEFAULT_CLIENT_ID = "123456789012-appflip.apps.googleusercontent.com"
BUNDLES = [
    "com.google.Chromecast",
    "com.google.Chromecast.dev",
    "com.google.Chromecast.enterprise",
    "com.google.OPA",
    "com.google.OPA.dev",
    "com.google.OPA.enterprise",
]
PRODUCTION = "https://oauth-redirect.googleusercontent.com"
SANDBOX = "https://oauth-redirect-sandbox.googleusercontent.com"


def redirect_uris(args):
    """The client's registered redirect URIs for the chosen configuration."""
    if args.project_urls_only:
        # A partner that registered only Google's web account-linking URLs (/r/PROJECT_ID), not App Flip's.
        return [f"{PRODUCTION}/r/{args.project_id}", f"{SANDBOX}/r/{args.project_id}"]
    hosts = [PRODUCTION] if args.no_sandbox else [PRODUCTION, SANDBOX]
    return [f"{host}/a/{bundle}" for host in hosts for bundle in BUNDLES]


Base = declarative_base()


class User(Base):
    __tablename__ = "user"
    id = Column(Integer, primary_key=True)
    username = Column(String(40), unique=True)

    def get_user_id(self):
        return self.id


class Client(Base, OAuth2ClientMixin):
    __tablename__ = "oauth2_client"
    id = Column(Integer, primary_key=True)
    client_id = Column(String(200), index=True)
    user_id = Column(Integer, ForeignKey("user.id"))


class AuthorizationCode(Base, OAuth2AuthorizationCodeMixin):
    __tablename__ = "oauth2_code"
    id = Column(Integer, primary_key=True)
    user_id = Column(Integer, ForeignKey("user.id"))
    lifetime = 300  # seconds; --code-lifetime

    def is_expired(self):
        return self.auth_time + self.lifetime < time.time()


class Token(Base, OAuth2TokenMixin):
    __tablename__ = "oauth2_token"
    id = Column(Integer, primary_key=True)
    user_id = Column(Integer, ForeignKey("user.id"))


def build(args):
    """The Flask app, the database with the client and the test user, and the user's session cookie."""
    engine = create_engine("sqlite://", connect_args={"check_same_thread": False}, poolclass=StaticPool)
    Base.metadata.create_all(engine)
    db = scoped_session(sessionmaker(bind=engine))

    user = User(username="appflip-test-user")
    db.add(user)
    db.flush()
    client = Client(client_id=args.client_id, client_secret=args.client_secret, user_id=user.id)
    client.client_id_issued_at = int(time.time())
    client.set_client_metadata(
        {
            "client_name": "Google (App Flip)",
            "redirect_uris": redirect_uris(args),
            "grant_types": ["authorization_code", "refresh_token"],
            "response_types": ["code"],
            "scope": "devices",
            "token_endpoint_auth_method": "client_secret_basic" if args.basic_auth else "client_secret_post",
        }
    )
    db.add(client)
    db.commit()
    user_id = user.id
    if args.parsed_redirect:
        # Misconfigured: the check reads the URL as a parser would, and decodes its path.
        parse = lambda uri: unquote(uri.replace("\t", "").replace("\r", "").replace("\n", ""))  # noqa: E731
        Client.check_redirect_uri = lambda self, uri: parse(uri) in self.redirect_uris
    if args.any_secret:
        # Misconfigured: the secret is never compared.
        Client.check_client_secret = lambda self, secret: True
    AuthorizationCode.lifetime = args.code_lifetime
    bound_to = {"unbound": "", "project": f"{PRODUCTION}/r/{args.project_id}"}

    class AuthorizationCodeGrant(grants.AuthorizationCodeGrant):
        TOKEN_ENDPOINT_AUTH_METHODS = ["client_secret_basic", "client_secret_post"]

        def save_authorization_code(self, code, request):
            redirect_uri = request.payload.redirect_uri
            if args.unbound_code or args.project_bound_code:
                # Misconfigured: the code keeps no redirect_uri, or the partner's /r/ URL instead of the App Flip one.
                redirect_uri = bound_to["unbound" if args.unbound_code else "project"]
            item = AuthorizationCode(
                code=code,
                client_id=request.client.client_id,
                redirect_uri=redirect_uri,
                scope=request.scope,
                user_id=request.user.id,
                code_challenge=request.payload.data.get("code_challenge"),
                code_challenge_method=request.payload.data.get("code_challenge_method"),
            )
            db.add(item)
            db.commit()
            issued(code)
            return item

        def query_authorization_code(self, code, client):
            item = db.query(AuthorizationCode).filter_by(code=code, client_id=client.client_id).first()
            if item and not item.is_expired():
                return item
            return None

        def delete_authorization_code(self, authorization_code):
            if args.reusable_code:
                return  # Misconfigured: a used code stays valid.
            db.delete(authorization_code)
            db.commit()

        def authenticate_user(self, authorization_code):
            return db.get(User, authorization_code.user_id)

    class RefreshTokenGrant(grants.RefreshTokenGrant):
        TOKEN_ENDPOINT_AUTH_METHODS = ["client_secret_basic", "client_secret_post"]
        INCLUDE_NEW_REFRESH_TOKEN = True

        def authenticate_refresh_token(self, refresh_token):
            item = db.query(Token).filter_by(refresh_token=refresh_token).first()
            if item and not item.refresh_token_revoked_at:
                return item
            return None

        def authenticate_user(self, credential):
            return db.get(User, credential.user_id)

        def revoke_old_credential(self, credential):
            credential.refresh_token_revoked_at = int(time.time())
            db.commit()

    app = Flask(__name__)
    app.config["SECRET_KEY"] = secrets.token_hex(32)
    app.config["OAUTH2_REFRESH_TOKEN_GENERATOR"] = True  # Google keeps the link alive with the refresh token
    save_token = create_save_token_func(db, Token)

    def save_and_note_token(token, request):
        save_token(token, request)
        issued(token.get("access_token"), token.get("refresh_token"))

    server = AuthorizationServer(app, query_client=create_query_client_func(db, Client), save_token=save_and_note_token)
    server.register_grant(AuthorizationCodeGrant, [CodeChallenge(required=False)])
    server.register_grant(RefreshTokenGrant)

    served = {"requests": 0}
    served_lock = threading.Lock()

    def session_expired():
        """Counts an authorization request; whether the session has ended (--session-requests)."""
        with served_lock:
            served["requests"] += 1
            return args.session_requests is not None and served["requests"] > args.session_requests

    def issued(*values):
        """Notes issued secrets in --issued FILE."""
        if args.issued:
            with served_lock, open(args.issued, "a") as log:
                log.write("".join(f"{value}\n" for value in values if value))

    def current_user():
        uid = session.get("uid")
        return db.get(User, uid) if uid is not None else None

    @app.get("/oauth/authorize")
    def authorize():
        user = current_user()
        if user is not None and session_expired():
            if args.expired_page == "consent":
                page = "<h1>Allow Google (App Flip) to access your devices?</h1><form method=post><button>Allow</button></form>"
                return page, 200
            user = None
        if user is None:
            return redirect(url_for("login", next=request.full_path))
        if args.trim_client_id and "client_id" in request.args:
            # Misconfigured: the lookup sees the client_id trimmed, so a padded id gets a code.
            query = request.args.copy()
            query["client_id"] = query["client_id"].strip(" \t\r\n\0.")
            request.args = query
        try:
            grant = server.get_consent_grant(end_user=user)
        except OAuth2Error as error:
            if args.open_redirect_errors and request.args.get("redirect_uri"):
                # Misconfigured: the error goes to whatever redirect_uri came, validated or not.
                target = request.args.getlist("redirect_uri")[-1]
                mark = "&" if "?" in target else "?"
                query = urlencode({"error": error.error, "state": request.args.get("state", "")})
                return redirect(f"{target}{mark}{query}", 302)
            return server.handle_error_response(request, error)
        except ValueError as error:
            # Authlib (since PR #728, 1.6) refuses the redirect_uri with its own exact check, then raises ValueError
            # building the error: the description quotes the redirect_uri, and one with a character outside NQSCHAR
            # (a backslash, a control or non-ASCII character) is "forbidden" there: HTTP 500. A partner would catch
            # it like this; --unguarded leaves the 500 as Authlib ships it.
            if args.unguarded or "forbidden characters" not in str(error):
                raise
            refusal = InvalidRequestError("The redirect_uri is not supported by the client.")
            refusal.state = request.args.get("state")
            return server.handle_error_response(request, refusal)
        # The signed-in test user consents at once.
        return server.create_authorization_response(grant=grant, grant_user=user)

    @app.post("/oauth/token")
    def issue_token():
        response = server.create_token_response()
        if args.token_shape is None or response.status_code != 200:
            return response
        # Misconfigured: a hand-written answer Google cannot read, or one caches may keep.
        token = response.get_json()
        if args.token_shape == "no-token-type":
            token.pop("token_type", None)
            response.set_data(json.dumps(token))
        elif args.token_shape == "form":
            response = Response(urlencode(token), 200, {"Content-Type": "application/x-www-form-urlencoded",
                                                        "Cache-Control": "no-store"})
        else:
            del response.headers["Cache-Control"]
            del response.headers["Pragma"]
        return response

    @app.get("/login")
    def login():
        return "<p>Sign in to the App Flip test server.</p>", 200

    @app.teardown_appcontext
    def remove_session(_exception=None):
        db.remove()

    cookie_value = app.session_interface.get_signing_serializer(app).dumps({"uid": user_id})
    cookie = f"{app.config.get('SESSION_COOKIE_NAME', 'session')}={cookie_value}"
    return app, cookie


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--client-id", default=DEFAULT_CLIENT_ID, help="Google's client id to register")
    configuration = parser.add_mutually_exclusive_group()
    configuration.add_argument(
        "--no-sandbox", action="store_true", help="misconfigured: register only the 6 production App Flip URLs"
    )
    configuration.add_argument(
        "--project-urls-only",
        action="store_true",
        help="misconfigured: register only Google's /r/PROJECT_ID account-linking URLs, no App Flip URL",
    )
    parser.add_argument(
        "--project-id", default="appflip-conformance-test-project", help="the project id in /r/ URLs"
    )
    parser.add_argument(
        "--unguarded",
        action="store_true",
        help="answer HTTP 500 where Authlib raises ValueError for a redirect_uri outside NQSCHAR (as it ships)",
    )
    parser.add_argument(
        "--open-redirect-errors",
        action="store_true",
        help="misconfigured: redirect every error to the request's redirect_uri, validated or not",
    )
    parser.add_argument(
        "--trim-client-id",
        action="store_true",
        help="misconfigured: trim whitespace, NUL and dots off client_id before looking it up",
    )
    parser.add_argument(
        "--parsed-redirect",
        action="store_true",
        help="misconfigured: compare redirect_uri after removing tab, CR and LF and percent-decoding it",
    )
    parser.add_argument(
        "--session-requests", type=int, help="end the test user's session after this many authorization requests"
    )
    parser.add_argument(
        "--expired-page", choices=["login", "consent"], default="login",
        help="what an ended session answers: a redirect to /login (default) or the consent page"
    )
    parser.add_argument("--client-secret", default=secrets.token_urlsafe(24), help="the client's secret")
    parser.add_argument("--basic-auth", action="store_true", help="the client authenticates with HTTP Basic only")
    parser.add_argument("--code-lifetime", type=int, default=300, help="seconds a code lives")
    bugs = parser.add_mutually_exclusive_group()
    bugs.add_argument("--reusable-code", action="store_true", help="misconfigured: a code can be exchanged twice")
    bugs.add_argument("--unbound-code", action="store_true", help="misconfigured: a code keeps no redirect_uri")
    bugs.add_argument(
        "--project-bound-code", action="store_true", help="misconfigured: a code is bound to the /r/ project URL"
    )
    bugs.add_argument("--any-secret", action="store_true", help="misconfigured: any client secret is accepted")
    bugs.add_argument(
        "--token-shape", choices=["no-token-type", "form", "cacheable"],
        help="misconfigured: a token answer without token_type, as form data, or without Cache-Control: no-store"
    )
    parser.add_argument("--issued", help="append every code and token issued to this file")
    parser.add_argument("--port", type=int, default=0, help="port on 127.0.0.1; 0 picks a free one")
    args = parser.parse_args()

    logging.getLogger("werkzeug").setLevel(logging.ERROR)
    app, cookie = build(args)
    httpd = make_server("127.0.0.1", args.port, app, threaded=True)
    port = httpd.server_port

    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    signal.signal(signal.SIGINT, lambda *_: stop.set())

    def watch_stdin():
        try:
            while sys.stdin.buffer.read1(4096):
                pass
        except (OSError, ValueError):
            pass
        stop.set()

    gc.freeze()
    gc.enable()
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    threading.Thread(target=watch_stdin, daemon=True).start()
    ready = {
        "ready": True,
        "port": port,
        "endpoint": f"http://127.0.0.1:{port}/oauth/authorize",
        "tokenEndpoint": f"http://127.0.0.1:{port}/oauth/token",
        "clientSecret": args.client_secret,
        "cookie": cookie,
        "clientId": args.client_id,
        "redirectUris": redirect_uris(args),
    }
    print(json.dumps(ready), flush=True)
    while not stop.wait(0.5):
        pass
    httpd.shutdown()


if __name__ == "__main__":
    main()
