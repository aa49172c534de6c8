#!/usr/bin/env python3
"""A third real OAuth 2.0 authorization endpoint: django-oauth-toolkit's AuthorizationView in Django, on 127.0.0.1.

django-oauth-toolkit (not written here) checks the client, the redirect_uri (its own `redirect_to_uri_allowed`),
PKCE (required by default), response_type and scope, and decides between an error page and an error redirect. This
file only configures Django: one confidential application for Google's client id with the twelve App Flip URLs
(skip_authorization, so a signed-in user is not asked to consent), scope `devices`, and a test user who signs in at
`/accounts/login/` (POST username=appflip&password=appflip; the session is Django's `sessionid` cookie). The database
is a sqlite file in the temporary folder, migrated once per django-oauth-toolkit version and copied for each start.

    python3 dot_server.py [--wildcard-host | --no-sandbox]

--wildcard-host  misconfigured: ALLOW_URI_WILDCARDS with `https://*.googleusercontent.com/a/BUNDLE` registered, the
                 shortcut a partner takes to cover production and sandbox at once
--no-sandbox     misconfigured: only the six production URLs registered

The token endpoint is django-oauth-toolkit's TokenView at /o/token/, the application's secret (hashed by
django-oauth-toolkit, printed once as "clientSecret") taken in the form body or in HTTP Basic.

Prints {"ready": true, "port": N, "endpoint": URL, "tokenEndpoint": URL, "clientSecret": S, "cookie": "sessionid=…",
"login": URL} when ready; without the cookie the endpoint redirects to its own /accounts/login/ page. Exits when stdin
closes.
"""

import gc

# No cycle collection while Django loads and migrates, as in server.py; back on, frozen, before the server serves.
gc.disable()

import argparse
import json
import os
import secrets
import shutil
import sys
import tempfile
import threading
from socketserver import ThreadingMixIn
from wsgiref.simple_server import WSGIRequestHandler, WSGIServer, make_server

import django
from django.conf import settings

from fixture_common import wait_for_stdin_to_close

CLIENT_ID = "123456789012-appflip.apps.googleusercontent.com"
BUNDLES = ["com.google.Chromecast", "com.google.Chromecast.dev", "com.google.Chromecast.enterprise",
           "com.google.OPA", "com.google.OPA.dev", "com.google.OPA.enterprise"]
HOSTS = ["oauth-redirect.googleusercontent.com", "oauth-redirect-sandbox.googleusercontent.com"]
USER = PASSWORD = "appflip"


def configure(database, wildcard):
    settings.configure(
        DEBUG=False,
        SECRET_KEY="appflip-conformance-fixture",
        ALLOWED_HOSTS=["127.0.0.1", "localhost"],
        ROOT_URLCONF=__name__,
        INSTALLED_APPS=["django.contrib.contenttypes", "django.contrib.auth", "django.contrib.sessions",
                        "oauth2_provider"],
        MIDDLEWARE=["django.contrib.sessions.middleware.SessionMiddleware",
                    "django.contrib.auth.middleware.AuthenticationMiddleware"],
        DATABASES={"default": {"ENGINE": "django.db.backends.sqlite3", "NAME": database,
                               "OPTIONS": {"timeout": 20}}},
        TEMPLATES=[{"BACKEND": "django.template.backends.django.DjangoTemplates", "APP_DIRS": True}],
        DEFAULT_AUTO_FIELD="django.db.models.AutoField",
        USE_TZ=True,
        LOGGING_CONFIG=None,
        PASSWORD_HASHERS=["django.contrib.auth.hashers.MD5PasswordHasher"],  # a fast start; a test user only
        OAUTH2_PROVIDER={"SCOPES": {"devices": "Your devices"}, "DEFAULT_SCOPES": ["devices"],
                         "ALLOW_URI_WILDCARDS": wildcard},
    )
    django.setup()


def migrated_database():
    """A fresh copy of a database migrated once per Django and django-oauth-toolkit version."""
    import oauth2_provider
    from django.core.management import call_command
    from django.db import connections

    folder = tempfile.gettempdir()
    template = os.path.join(folder, f"appflip-dot-{django.__version__}-{oauth2_provider.__version__}.sqlite3")
    database = settings.DATABASES["default"]["NAME"]
    if os.path.exists(template):
        shutil.copyfile(template, database)
        return
    call_command("migrate", verbosity=0, interactive=False)
    connections.close_all()
    partial = f"{template}.{os.getpid()}"
    shutil.copyfile(database, partial)
    os.replace(partial, template)  # atomic: a concurrent start copies a whole template or migrates on its own


def urlpatterns_for():
    from django.contrib.auth import authenticate, login
    from django.http import HttpResponse, HttpResponseRedirect
    from django.urls import path
    from django.views.decorators.csrf import csrf_exempt
    from oauth2_provider.views import AuthorizationView, TokenView

    @csrf_exempt
    def login_view(request):
        if request.method == "POST":
            user = authenticate(request, username=request.POST.get("username"), password=request.POST.get("password"))
            if user is None:
                return HttpResponse("wrong username or password", status=403, content_type="text/plain")
            login(request, user)
            return HttpResponseRedirect(request.GET.get("next") or "/accounts/done/")
        return HttpResponse('<form method="post"><input name="username"><input type="password" name="password">'
                            "</form>", content_type="text/html")

    return [
        path("o/authorize/", AuthorizationView.as_view(), name="authorize"),
        path("o/token/", TokenView.as_view(), name="token"),
        path("accounts/login/", login_view),
        path("accounts/done/", lambda request: HttpResponse("signed in", content_type="text/plain")),
    ]


def seed(args, secret):
    """The test user, its session, and the application with this client secret; returns the session cookie."""
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY, get_user_model
    from django.contrib.sessions.backends.db import SessionStore
    from oauth2_provider.models import Application

    user = get_user_model().objects.create_user(USER, password=PASSWORD)
    if args.wildcard_host:
        uris = [f"https://*.googleusercontent.com/a/{bundle}" for bundle in BUNDLES]
    else:
        hosts = HOSTS[:1] if args.no_sandbox else HOSTS
        uris = [f"https://{host}/a/{bundle}" for host in hosts for bundle in BUNDLES]
    Application.objects.create(
        client_id=CLIENT_ID, user=user, name="Google App Flip", redirect_uris=" ".join(uris),
        client_secret=secret, client_type=Application.CLIENT_CONFIDENTIAL,
        authorization_grant_type=Application.GRANT_AUTHORIZATION_CODE,
        skip_authorization=True, algorithm="")
    session = SessionStore()
    session[SESSION_KEY] = str(user.pk)
    session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
    session[HASH_SESSION_KEY] = user.get_session_auth_hash()
    session.create()
    return f"{settings.SESSION_COOKIE_NAME}={session.session_key}"


class QuietHandler(WSGIRequestHandler):
    def log_message(self, *_):
        pass


class ThreadingServer(ThreadingMixIn, WSGIServer):
    daemon_threads = True


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    group = parser.add_mutually_exclusive_group()
    group.add_argument("--wildcard-host", action="store_true")
    group.add_argument("--no-sandbox", action="store_true")
    args = parser.parse_args()

    folder = tempfile.mkdtemp(prefix="appflip-dot-")
    try:
        configure(os.path.join(folder, "db.sqlite3"), args.wildcard_host)
        migrated_database()
        secret = secrets.token_urlsafe(24)
        cookie = seed(args, secret)
        from django.core.handlers.wsgi import WSGIHandler

        sys.modules[__name__].urlpatterns = urlpatterns_for()
        httpd = make_server("127.0.0.1", 0, WSGIHandler(), server_class=ThreadingServer, handler_class=QuietHandler)
        gc.freeze()
        gc.enable()
        threading.Thread(target=httpd.serve_forever, daemon=True).start()
        port = httpd.server_address[1]
        base = f"http://127.0.0.1:{port}"
        print(json.dumps({"ready": True, "port": port, "endpoint": f"{base}/o/authorize/",
                          "tokenEndpoint": f"{base}/o/token/", "clientSecret": secret, "cookie": cookie,
                          "login": f"{base}/accounts/login/"}), flush=True)
        wait_for_stdin_to_close()
        httpd.shutdown()
    finally:
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
