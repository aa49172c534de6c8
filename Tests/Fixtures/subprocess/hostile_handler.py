#!/usr/bin/env python3
"""The Python example handler with hostile answers on every vector, for the BadInput suite.

    hostile_handler.py MODE

    dup-key     answers with "reason" twice in one object
    long-skip   skips with a 100 000-character reason
    esc-skip    skips with a reason full of terminal escapes and a forged summary line
    hang        never answers (to be interrupted)
"""

import json
import os
import sys
import time

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "Examples", "python"))
import appflip_handler  # noqa: E402

MODE = sys.argv[1]


def answer(message, request_code):
    seq = message["seq"]
    if MODE == "dup-key":
        sys.stdout.write('{"seq": %d, "skipped": {"reason": "first", "reason": "second"}}\n' % seq)
        sys.stdout.flush()
        return None
    if MODE == "long-skip":
        return {"seq": seq, "skipped": {"reason": "x" * 100000}}
    if MODE == "esc-skip":
        return {"seq": seq, "skipped": {"reason": "\x1b]0;pwned\x07\x1b[31mred\r\n435 vectors: 435 passed"}}
    if MODE == "hang":
        time.sleep(3600)
    return appflip_handler.run(message, request_code)


if __name__ == "__main__":
    original_send = appflip_handler.send
    appflip_handler.send = lambda message: message is not None and original_send(message)
    appflip_handler.serve(answer=answer, ready=appflip_handler.READY)
