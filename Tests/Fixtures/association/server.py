#!/usr/bin/env python3
"""An https server on 127.0.0.1 (standard library only) serving /.well-known/apple-app-site-association one way:

  --mode file             the file (--file, default modern.json beside this script), 200, application/json
  --mode redirect         301 to https://www.<host>/.well-known/apple-app-site-association
  --mode not-found        404 with an HTML page
  --mode not-json         200 with an HTML page as application/json
  --mode text-plain       the file, as text/plain
  --mode oversize         200 with 200 KiB of valid JSON (the file padded with a long comment)
  --mode huge             200 with 10 MiB of body, Content-Length announced
  --mode never            accepts the request and never answers (until stdin closes)
  --mode unauthorized     401 with WWW-Authenticate
  --mode forbid-apple     the file, but 403 to Apple's CDN's User-Agent (AASA-Bot/...)

    python3 server.py --tls CERT KEY [--mode MODE] [--file PATH]

Every request's User-Agent is appended to the log (GET /agents returns them, one a line). Prints {"port": N} when
ready; exits when stdin closes.
"""

import argparse
import json
import os
import ssl
import sys
import threading
from http.server import ThreadingHTTPServer

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "oauth-server"))
from fixture_common import AnsweringHandler, wait_for_stdin_to_close  # noqa: E402

WELL_KNOWN = "/.well-known/apple-app-site-association"
HTML = b"<!doctype html><html><body><p>Not here.</p></body></html>"
stop = threading.Event()
agents = []


def padded(data, size):
    document = json.loads(data)
    document["applinks"]["details"][0]["comment"] = "x" * size
    return json.dumps(document).encode()


class Handler(AnsweringHandler):
    def do_GET(self):
        agents.append(self.headers.get("User-Agent", ""))
        if self.path == "/agents":
            return self.answer(200, [("Content-Type", "text/plain")], "\n".join(agents).encode())
        if self.path != WELL_KNOWN:
            return self.answer(404, [("Content-Type", "text/html")], HTML)
        mode, body = self.server.mode, self.server.body
        json_type = [("Content-Type", "application/json")]
        if mode == "redirect":
            host = self.headers.get("Host", "127.0.0.1").split(":")[0]
            return self.answer(301, [("Location", f"https://www.{host}{WELL_KNOWN}")], HTML)
        if mode == "not-found":
            return self.answer(404, [("Content-Type", "text/html")], HTML)
        if mode == "not-json":
            return self.answer(200, json_type, HTML)
        if mode == "text-plain":
            return self.answer(200, [("Content-Type", "text/plain")], body)
        if mode == "oversize":
            return self.answer(200, json_type, padded(body, 200 * 1024))
        if mode == "unauthorized":
            return self.answer(401, [("WWW-Authenticate", 'Basic realm="staging"')], HTML)
        if mode == "forbid-apple" and "AASA-Bot" in self.headers.get("User-Agent", ""):
            return self.answer(403, [("Content-Type", "text/html")], HTML)
        if mode == "huge":
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(10 * 1024 * 1024))
            self.end_headers()
            try:
                for _ in range(10 * 1024):
                    self.wfile.write(b" " * 1024)
            except OSError:
                pass
            return None
        if mode == "never":
            stop.wait()
            return None
        return self.answer(200, json_type, body)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--tls", nargs=2, required=True, metavar=("CERT", "KEY"))
    parser.add_argument("--mode", default="file")
    parser.add_argument("--file", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "modern.json"))
    options = parser.parse_args()
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    server.mode = options.mode
    with open(options.file, "rb") as file:
        server.body = file.read()
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(*options.tls)
    server.socket = context.wrap_socket(server.socket, server_side=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    print(json.dumps({"port": server.server_address[1]}), flush=True)
    wait_for_stdin_to_close()
    stop.set()
    server.shutdown()


if __name__ == "__main__":
    main()
