#!/usr/bin/env python3
"""A misbehaving HTTP server (standard library only, raw sockets) on 127.0.0.1 and, where the machine has it, ::1.

Every fault of issue 9 on its own path; the request line is read, then:
  /close-early        closes without a byte of answer
  /close-mid-headers  sends half a status line and headers, then closes
  /never              never answers (holds the connection open until the client closes it or stdin closes)
  /slow-headers       sends the headers one byte every 0.3 seconds (about 40 seconds in all)
  /slow-body          sends a 302's headers at once, then its body one byte a second
  /invalid            answers bytes that are not HTTP
  /huge-body          a 200 page claiming and streaming 1 GiB
  /huge-stream        a 200 page streaming 1 GiB without Content-Length, until the client closes
  /gzip               a 200 page gzip-compressed although the request asked for identity (1 MB of zeros)
  /huge-location      a 302 whose Location is 1 MiB long
  /non-utf8-location  a 302 whose Location holds bytes that are not UTF-8
  /offsite            a well-formed 302 to Google's App Flip URL (for the IPv6 literal)
  /location-lf        a 302 to the App Flip URL with a raw LF inside its path (a redirect_uri with an inner newline
                      accepted and written back raw: header injection)
  /location-trailing-lf  the same with a raw CR LF after the bundle, before the query
  /location-cr        the same with a raw CR alone inside the path
  /location-nul       the same with a raw NUL inside the path
  /two-locations      a 302 with two Location headers, the App Flip URL with a code and another host
  /two-lengths        a 200 page with two Content-Length headers that disagree (5 and 6)
  /same-lengths       a 200 page with two Content-Length headers that agree (5 and 5)
  /chunked-page       a 200 HTML page sent chunked, with an error text inside markup
  /stats              a 200 JSON page {"never": N}: how many /never requests are being held open now
  /ten-mb             a 200 JSON answer of 10 MB (a token endpoint gone wrong), with its Content-Length
  /ten-mb-stream      the same without Content-Length, until the client closes
  /not-json           a 200 HTML page where a token answer belongs
  /echo-request       a 200 text page holding the request as received: its head and its body

    python3 faults.py [--tls CERT KEY]

--tls  serve every path over TLS with this PEM certificate and key (the https variant; the test makes a
       self-signed certificate with openssl and trusts it with --cacert)

Prints {"port": N, "port6": M or null} when ready; exits when stdin closes.
"""

import gzip
import json
import select
import socket
import ssl
import sys
import threading
import time

from fixture_common import wait_for_stdin_to_close

OFFSITE = b"https://oauth-redirect.googleusercontent.com/a/com.google.OPA?code=c1&state=s1"
RAW_LOCATIONS = {
    "/location-lf": b"https://oauth-redirect.googleusercontent.com/a/\ncom.google.OPA?code=c1&state=s1",
    "/location-trailing-lf": b"https://oauth-redirect.googleusercontent.com/a/com.google.OPA\r\n?code=c1&state=s1",
    "/location-cr": b"https://oauth-redirect.googleusercontent.com/a/\rcom.google.OPA?code=c1&state=s1",
    "/location-nul": b"https://oauth-redirect.googleusercontent.com/a/com.google.OPA\x00?code=c1&state=s1",
}
stop = threading.Event()
tls = None  # an ssl.SSLContext with --tls
held = {"never": 0}
held_lock = threading.Lock()


def read_request(conn):
    """The request's path, and every byte of it: the head, and the body its Content-Length announces."""
    data = b""
    while b"\r\n\r\n" not in data and len(data) < 1 << 20:
        chunk = conn.recv(65536)
        if not chunk:
            break
        data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    length = next((int(line.split(b":", 1)[1]) for line in head.split(b"\r\n")
                   if line.lower().startswith(b"content-length:")), 0)
    while len(body) < min(length, 1 << 20):
        chunk = conn.recv(65536)
        if not chunk:
            break
        body += chunk
    line = head.split(b"\r\n", 1)[0].decode("latin-1")
    parts = line.split(" ")
    return (parts[1].split("?", 1)[0] if len(parts) > 1 else ""), head + b"\r\n\r\n" + body


def send_slowly(conn, data, pause):
    for index in range(len(data)):
        if stop.is_set():
            return
        conn.sendall(data[index : index + 1])
        time.sleep(pause)


def serve(conn):
    try:
        if tls is not None:
            conn.settimeout(10)
            conn = tls.wrap_socket(conn, server_side=True)
            conn.settimeout(None)
        path, request = read_request(conn)
        if path == "/close-early":
            pass
        elif path == "/close-mid-headers":
            conn.sendall(b"HTTP/1.1 302 Found\r\nContent-Type: text/html\r\nLocation: https://oauth-redi")
        elif path == "/never":
            with held_lock:
                held["never"] += 1
            try:
                while not stop.is_set():  # until the client closes the connection (or stdin closes)
                    if select.select([conn], [], [], 0.1)[0] and not conn.recv(1):
                        break
            except OSError:
                pass
            finally:
                with held_lock:
                    held["never"] -= 1
        elif path == "/stats":
            with held_lock:
                body = json.dumps(held).encode()
            conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n"
                         + f"Content-Length: {len(body)}\r\n\r\n".encode() + body)
        elif path == "/slow-headers":
            send_slowly(conn, b"HTTP/1.1 302 Found\r\nLocation: " + OFFSITE + b"\r\nContent-Length: 0\r\n\r\n", 0.3)
        elif path == "/slow-body":
            conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: 100\r\n\r\n")
            send_slowly(conn, b"x" * 100, 1)
        elif path == "/invalid":
            conn.sendall(b"SSH-2.0-OpenSSH_9.6\r\n\r\n")
        elif path == "/huge-body":
            conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: 1073741824\r\n\r\n")
            block = b"<p>" + b"a" * 65530 + b"</p>"
            sent = 0
            while sent < 1 << 30 and not stop.is_set():
                conn.sendall(block)
                sent += len(block)
        elif path == "/huge-stream":
            conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n")
            block = b"a" * 65536
            sent = 0
            while sent < 1 << 30 and not stop.is_set():
                conn.sendall(block)
                sent += len(block)
        elif path == "/gzip":
            body = gzip.compress(b"\0" * 1_000_000)
            conn.sendall(
                b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Encoding: gzip\r\n"
                + f"Content-Length: {len(body)}\r\n\r\n".encode()
                + body
            )
        elif path == "/huge-location":
            conn.sendall(
                b"HTTP/1.1 302 Found\r\nLocation: https://evil.example/?q="
                + b"a" * (1 << 20)
                + b"\r\nContent-Length: 0\r\n\r\n"
            )
        elif path == "/non-utf8-location":
            conn.sendall(b"HTTP/1.1 302 Found\r\nLocation: https://evil.example/\xff\xfe\xc3\r\nContent-Length: 0\r\n\r\n")
        elif path == "/offsite":
            conn.sendall(b"HTTP/1.1 302 Found\r\nLocation: " + OFFSITE + b"\r\nContent-Length: 0\r\n\r\n")
        elif path in RAW_LOCATIONS:
            conn.sendall(b"HTTP/1.1 302 Found\r\nLocation: " + RAW_LOCATIONS[path] + b"\r\nContent-Length: 0\r\n\r\n")
        elif path == "/two-locations":
            conn.sendall(b"HTTP/1.1 302 Found\r\nLocation: " + OFFSITE + b"\r\nLocation: https://evil.example/cb"
                         + b"\r\nContent-Length: 0\r\n\r\n")
        elif path in ("/two-lengths", "/same-lengths"):
            second = b"6" if path == "/two-lengths" else b"5"
            conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: 5\r\nContent-Length: " + second + b"\r\n\r\nhello!")
        elif path in ("/ten-mb", "/ten-mb-stream"):
            length = b"Content-Length: 10485760\r\n" if path == "/ten-mb" else b""
            conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n" + length + b"\r\n")
            block = b'{"access_token": "' + b"a" * 65500 + b'"}\n'
            sent = 0
            while sent < 10 * 1024 * 1024 and not stop.is_set():
                conn.sendall(block)
                sent += len(block)
        elif path == "/echo-request":
            conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n"
                         + f"Content-Length: {len(request)}\r\n\r\n".encode() + request)
        elif path == "/not-json":
            body = b"<html><body><h1>Token service</h1><p>Sign in to continue.</p></body></html>"
            conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n"
                         + f"Content-Length: {len(body)}\r\n\r\n".encode() + body)
        elif path == "/chunked-page":
            body = b"<html><head><title>Error</title><style>p{color:red}</style></head><body><h1>Error:</h1>\n<p>Mismatching redirect URI.</p></body></html>"
            conn.sendall(
                b"HTTP/1.1 400 Bad Request\r\nContent-Type: text/html\r\nTransfer-Encoding: chunked\r\n\r\n"
                + f"{len(body[:40]):x}\r\n".encode() + body[:40] + b"\r\n"
                + f"{len(body[40:]):x}\r\n".encode() + body[40:] + b"\r\n0\r\n\r\n"
            )
        else:
            conn.sendall(b"HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n")
    except OSError:
        pass
    finally:
        try:
            conn.close()
        except OSError:
            pass


def listen(family, host):
    try:
        server = socket.socket(family, socket.SOCK_STREAM)
        server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        server.bind((host, 0))
        server.listen(64)
    except OSError:
        return None, None

    def accept():
        while not stop.is_set():
            try:
                conn, _ = server.accept()
            except OSError:
                return
            threading.Thread(target=serve, args=(conn,), daemon=True).start()

    threading.Thread(target=accept, daemon=True).start()
    return server, server.getsockname()[1]


def main():
    global tls
    if len(sys.argv) == 4 and sys.argv[1] == "--tls":
        tls = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        tls.load_cert_chain(sys.argv[2], sys.argv[3])
    _, port = listen(socket.AF_INET, "127.0.0.1")
    _, port6 = listen(socket.AF_INET6, "::1")
    print(json.dumps({"port": port, "port6": port6}), flush=True)
    wait_for_stdin_to_close()
    stop.set()


if __name__ == "__main__":
    main()
