#!/usr/bin/env python3
"""The Python example handler with hostile answers on every vector, for the BadInput suite.

    hostile_handler.py MODE [VECTOR_ID]

With VECTOR_ID, only that vector gets the hostile answer; every other vector is answered correctly.

    dup-key     answers with "reason" twice in one object
    long-skip   skips with a 100 000-character reason
    esc-skip    skips with a reason full of terminal escapes and a forged summary line
    hang        never answers (to be interrupted); gone within a second of the harness, so a test that kills the
                harness with SIGKILL, which cannot stop its implementation, leaves nothing behind
    two-answers answers correctly, twice (the same line back to back)
    exit-noise  answers correctly, and writes a line with no seq to stdout as it exits
    slow-exit MARKER
                answers correctly, and as it exits spends 0.3 s before it appends "cleaned up" to MARKER
    late-answer VECTOR_ID AFTER MARKER
                answers correctly, and answers VECTOR_ID again (the same line) just before it answers the AFTER-th run
                message after it; then it creates MARKER, and a process that finds MARKER answers everything once
    exit-leaving-child
                starts a child that keeps stdout and stderr open for ten minutes, writes to stderr, and exits
                with status 4 without answering
    exit-leaving-writer
                the same, but the child keeps writing to stdout (no newline, for at most 30 seconds), so no poll
                of the harness's comes back without stdout
"""

import atexit
import json
import os
import subprocess
import sys
import time

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "Examples", "python"))
import appflip_handler  # noqa: E402

MODE = sys.argv[1]
TARGET = sys.argv[2] if len(sys.argv) > 2 and MODE != "slow-exit" else None


def exit_noise():
    sys.stdout.write('{"note":"bye"}\n')
    sys.stdout.flush()


def slow_exit():
    time.sleep(0.3)
    with open(sys.argv[2], "a") as marker:
        marker.write("cleaned up\n")


if MODE == "exit-noise":
    atexit.register(exit_noise)
if MODE == "slow-exit":
    atexit.register(slow_exit)


late = {"answer": None, "countdown": 0}  # late-answer: the answer to send again, and the run messages left till then


def late_answer(message, request_code):
    if late["answer"] is not None:
        late["countdown"] -= 1
        if late["countdown"] == 0:
            appflip_handler.send(late["answer"])
            late["answer"] = None
            open(sys.argv[4], "a").close()
    response = appflip_handler.run(message, request_code)
    if message["vector"] == TARGET and late["answer"] is None and not os.path.exists(sys.argv[4]):
        late["answer"], late["countdown"] = response, int(sys.argv[3])
    return response


def answer(message, request_code):
    seq = message["seq"]
    if MODE == "late-answer":
        return late_answer(message, request_code)
    if TARGET is not None and message["vector"] != TARGET:
        return appflip_handler.run(message, request_code)
    if MODE == "two-answers":
        response = appflip_handler.run(message, request_code)
        line = json.dumps(response, separators=(",", ":")) + "\n"
        with appflip_handler._stdout:
            sys.stdout.write(line)
            sys.stdout.write(line)
            sys.stdout.flush()
        return None
    if MODE == "exit-leaving-child":
        subprocess.Popen(["sleep", "600"])  # inherits stdout and stderr, so neither pipe ends when this process exits
    if MODE == "exit-leaving-writer":
        writer = "import os, time\nend = time.time() + 30\nwhile time.time() < end:\n    os.write(1, b'x')\n    time.sleep(0.00005)\n"
        subprocess.Popen([sys.executable, "-c", writer])
        time.sleep(0.5)  # the child is writing before this process exits
    if MODE in ("exit-leaving-child", "exit-leaving-writer"):
        sys.stderr.write("hostile_handler.py: exiting, leaving a child behind\n")
        sys.stderr.flush()
        os._exit(4)
    if MODE == "dup-key":
        sys.stdout.write('{"seq": %d, "skipped": {"reason": "first", "reason": "second"}}\n' % seq)
        sys.stdout.flush()
        return None
    if MODE == "long-skip":
        return {"seq": seq, "skipped": {"reason": "x" * 100000}}
    if MODE == "esc-skip":
        return {"seq": seq, "skipped": {"reason": "\x1b]0;pwned\x07\x1b[31mred\r\n435 vectors: 435 passed"}}
    if MODE == "hang":
        parent = os.getppid()
        while os.getppid() == parent:
            time.sleep(0.5)
        os._exit(0)
    return appflip_handler.run(message, request_code)


if __name__ == "__main__":
    original_send = appflip_handler.send
    appflip_handler.send = lambda message: message is not None and original_send(message)
    appflip_handler.serve(answer=answer, ready=appflip_handler.READY)
