#!/usr/bin/env python3
"""The Python example as it was for protocol version 1, kept to check that version 1 adapters keep working.

    swift run appflip-conformance --exec 'python3 Tests/Fixtures/subprocess/v1_handler.py'

The adapter below is Examples/python/appflip_handler.py's before version 2, unchanged: it answers start
only when `version` is 1, gets the outcome in each run message, and reports its code requests in its
answer. Interleaved vectors are skipped for it, with the reason. The handler is the example's.
"""

import json
import os
import sys

sys.dont_write_bytecode = True  # leave no __pycache__ in Examples/python
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "Examples", "python"))
from appflip_handler import handle_link  # noqa: E402

PROTOCOL_VERSION = 1

# --- The protocol -------------------------------------------------------------------------------


def run(message):
    """Answers one run message: runs the handler against the scripted OAuth server, reports what it did."""
    configuration = message["configuration"]
    outcome = message["outcome"]
    requests = []

    def request_code(client_id, redirect_uri, scopes):  # the OAuth server, scripted by the vector
        requests.append({"clientId": client_id, "redirectUri": redirect_uri, "scopes": scopes})
        return outcome

    url = handle_link(
        message["link"], configuration["clientId"], configuration["allowedRedirectUris"], request_code
    )
    opened = None if url is None else {"url": url, "universalLinksOnly": True}
    return {"seq": message["seq"], "opened": opened, "authorization": requests}


READY = {
    "ready": True,
    "version": PROTOCOL_VERSION,
    "implementation": {"name": "appflip-python-example", "version": "1.0.0", "language": "python"},
    "capabilities": {"configuration": True, "universalLinksOnly": True},
}


def send(message):
    # ensure_ascii keeps the line pure ASCII; \u escapes carry any string exactly.
    sys.stdout.write(json.dumps(message, ensure_ascii=True, separators=(",", ":")) + "\n")
    sys.stdout.flush()


def serve(answer=run, ready=READY):
    """Reads one message per line until stop or end of input; `answer` turns a run message into a response."""
    for line in iter(sys.stdin.buffer.readline, b""):
        message = json.loads(line)
        command = message.get("cmd")
        if command == "start":
            if message.get("version") != PROTOCOL_VERSION:
                sys.exit(f"appflip_handler.py speaks protocol version {PROTOCOL_VERSION}, got {message.get('version')}")
            send(ready)
        elif command == "run":
            try:
                send(answer(message))
            except Exception as error:  # report, do not die: the harness marks this vector as error
                send({"seq": message["seq"], "errored": {"message": f"{type(error).__name__}: {error}"}})
        elif command == "stop":
            return


if __name__ == "__main__":
    serve()
