"""What the loopback fixtures beside this file share: an HTTP handler that answers in one call, and the wait for stdin
to close (each fixture exits when the test that started it closes its standard input)."""

import sys
from http.server import BaseHTTPRequestHandler


class AnsweringHandler(BaseHTTPRequestHandler):
    """A quiet handler with `answer(status, headers, body)`, which always sends Content-Length."""

    def log_message(self, *_):
        pass

    def answer(self, status, headers=(), body=b""):
        self.send_response(status)
        for name, value in headers:
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


def wait_for_stdin_to_close():
    """Blocks until standard input closes (or the process is interrupted)."""
    try:
        while sys.stdin.buffer.read1(4096):
            pass
    except (OSError, ValueError, KeyboardInterrupt):
        pass
