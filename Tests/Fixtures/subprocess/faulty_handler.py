#!/usr/bin/env python3
"""The Python example handler with one deliberate fault, for the subprocess adapter's tests.

    faulty_handler.py FAULT [VECTOR_ID]

Every vector but VECTOR_ID is answered correctly (by Examples/python/appflip_handler.py); on VECTOR_ID:

    crash        writes a traceback-like line to stderr and exits with status 3
    hang         never answers
    garbage      answers with a line that is neither JSON nor UTF-8
    wrong-seq    answers with the next request's seq
    half-line    writes half a response and exits
    log-stdout   prints a log line to stdout before its answer
    skip         answers {"skipped": ...}
    error        answers {"errored": ...}
    bad-field    answers with "authorisation" instead of "authorization"
    exit-at-start  (no VECTOR_ID) exits before answering start
    version-2    (no VECTOR_ID) answers start with protocol version 2
    slow         (no VECTOR_ID) answers every vector correctly after 50 ms, to be interrupted mid-run
    echo         (no VECTOR_ID) opens the link itself, and reports one code request with the configuration's
                 client id, the link as redirect URI, and the vector id and its process id as scopes

With APPFLIP_FAULTY_PID_FILE set, it first appends "PID PARENT_PID" to that file, so a test can check that neither
outlives the harness's kill.
"""

import os
import sys
import time

sys.dont_write_bytecode = True  # leave no __pycache__ in Examples/python
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "Examples", "python"))
import appflip_handler  # noqa: E402

FAULT = sys.argv[1]
TARGET = sys.argv[2] if len(sys.argv) > 2 else None


def fail(text, status):
    sys.stderr.write(text + "\n")
    sys.stderr.flush()
    os._exit(status)


def answer(message):
    if FAULT == "echo":
        configuration = message["configuration"]
        return {
            "seq": message["seq"],
            "opened": {"url": message["link"], "universalLinksOnly": True},
            "authorization": [
                {
                    "clientId": configuration["clientId"],
                    "redirectUri": message["link"],
                    "scopes": [message["vector"], str(os.getpid())],
                }
            ],
        }
    if FAULT == "slow":
        time.sleep(0.05)
    response = appflip_handler.run(message)
    if message["vector"] != TARGET:
        return response
    sys.stderr.write(f"faulty_handler.py: {FAULT} on {TARGET}\n")
    sys.stderr.flush()
    if FAULT == "crash":
        fail('Traceback (most recent call last):\n  File "faulty_handler.py"\nRuntimeError: simulated crash', 3)
    if FAULT == "hang":
        time.sleep(3600)
    if FAULT == "garbage":
        sys.stdout.buffer.write(b"not json \xff\xfe\n")
        sys.stdout.flush()
        return None
    if FAULT == "wrong-seq":
        response["seq"] += 1
    if FAULT == "half-line":
        sys.stdout.write('{"seq": %d, "opened"' % message["seq"])
        sys.stdout.flush()
        fail("faulty_handler.py: exiting mid-line", 0)
    if FAULT == "log-stdout":
        sys.stdout.write("handling " + TARGET + "\n")
    if FAULT == "skip":
        return {"seq": message["seq"], "skipped": {"reason": "this handler has no sandbox client"}}
    if FAULT == "error":
        return {"seq": message["seq"], "errored": {"message": "the keychain is locked"}}
    if FAULT == "bad-field":
        response["authorisation"] = response.pop("authorization")
    return response


if __name__ == "__main__":
    if os.environ.get("APPFLIP_FAULTY_PID_FILE"):
        with open(os.environ["APPFLIP_FAULTY_PID_FILE"], "a", encoding="utf-8") as out:
            out.write(f"{os.getpid()} {os.getppid()}\n")
    if FAULT == "exit-at-start":
        fail("faulty_handler.py: cannot read my configuration; exiting", 2)
    ready = dict(appflip_handler.READY, version=2) if FAULT == "version-2" else appflip_handler.READY
    original_send = appflip_handler.send  # `garbage` answers by itself and returns None: send nothing more
    appflip_handler.send = lambda message: message is not None and original_send(message)
    appflip_handler.serve(answer=answer, ready=ready)
