#!/usr/bin/env python3
"""The Python example handler (protocol version 2) with one deliberate fault, for the subprocess adapter's tests.

    faulty_handler.py FAULT [VECTOR_ID]

Every vector but VECTOR_ID is answered correctly (by Examples/python/appflip_handler.py); on VECTOR_ID:

    crash          writes a traceback-like line to stderr and exits with status 3
    hang           never answers
    garbage        answers with a line that is neither JSON nor UTF-8
    wrong-seq      answers with the next request's seq
    half-line      writes half a response and exits
    log-stdout     prints a log line to stdout before its answer
    skip           answers {"skipped": ...}
    error          answers {"errored": ...}
    bad-field      answers with "authorisation", which is not part of version 2
    code-not-in-flight   asks for a code for the next request's seq, which is not in flight
    answer-before-code   asks for a code, then answers without waiting for the harness's code answer
    second-code    asks for a second code before the first was answered
    bad-code-request     asks for a code with "redirectURI" instead of "redirectUri"
    exit-at-start  (no VECTOR_ID) exits before answering start
    version-3      (no VECTOR_ID) answers start with protocol version 3
    slow           (no VECTOR_ID) answers every vector correctly after 50 ms, to be interrupted mid-run
    echo           (no VECTOR_ID) opens the link itself, after one code request with the configuration's
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


def code_request(seq, redirect_uri="https://oauth-redirect.googleusercontent.com/a/com.google.OPA"):
    return {"seq": seq, "codeRequest": {"clientId": "id", "redirectUri": redirect_uri, "scopes": []}}


def answer(message, request_code):
    seq = message["seq"]
    if FAULT == "echo":
        configuration = message["configuration"]
        request_code(configuration["clientId"], message["link"], [message["vector"], str(os.getpid())])
        return {"seq": seq, "opened": {"url": message["link"], "universalLinksOnly": True}}
    if FAULT == "slow":
        time.sleep(0.05)
    if message["vector"] != TARGET:
        return appflip_handler.run(message, request_code)
    sys.stderr.write(f"faulty_handler.py: {FAULT} on {TARGET}\n")
    sys.stderr.flush()
    if FAULT == "crash":
        fail('Traceback (most recent call last):\n  File "faulty_handler.py"\nRuntimeError: simulated crash', 3)
    if FAULT == "hang":
        time.sleep(3600)
    if FAULT == "garbage":
        with appflip_handler._stdout:
            sys.stdout.buffer.write(b"not json \xff\xfe\n")
            sys.stdout.flush()
        return None
    if FAULT == "half-line":
        with appflip_handler._stdout:
            sys.stdout.write('{"seq": %d, "opened"' % seq)
            sys.stdout.flush()
        fail("faulty_handler.py: exiting mid-line", 0)
    if FAULT == "code-not-in-flight":
        appflip_handler.send(code_request(seq + 1))
        time.sleep(3600)
    if FAULT == "answer-before-code":
        appflip_handler.send(code_request(seq))
        return {"seq": seq, "opened": None}
    if FAULT == "second-code":
        appflip_handler.send(code_request(seq))
        appflip_handler.send(code_request(seq))
        time.sleep(3600)
    if FAULT == "bad-code-request":
        request = code_request(seq)
        request["codeRequest"]["redirectURI"] = request["codeRequest"].pop("redirectUri")
        appflip_handler.send(request)
        time.sleep(3600)
    response = appflip_handler.run(message, request_code)
    if FAULT == "wrong-seq":
        response["seq"] += 1
    if FAULT == "log-stdout":
        with appflip_handler._stdout:
            sys.stdout.write("handling " + TARGET + "\n")
    if FAULT == "skip":
        return {"seq": seq, "skipped": {"reason": "this handler has no sandbox client"}}
    if FAULT == "error":
        return {"seq": seq, "errored": {"message": "the keychain is locked"}}
    if FAULT == "bad-field":
        response["authorisation"] = []
    return response


if __name__ == "__main__":
    if os.environ.get("APPFLIP_FAULTY_PID_FILE"):
        with open(os.environ["APPFLIP_FAULTY_PID_FILE"], "a", encoding="utf-8") as out:
            out.write(f"{os.getpid()} {os.getppid()}\n")
    if FAULT == "exit-at-start":
        fail("faulty_handler.py: cannot read my configuration; exiting", 2)
    ready = dict(appflip_handler.READY, version=3) if FAULT == "version-3" else appflip_handler.READY
    original_send = appflip_handler.send  # `garbage` answers by itself and returns None: send nothing more
    appflip_handler.send = lambda message: message is not None and original_send(message)
    appflip_handler.serve(answer=answer, ready=ready)
