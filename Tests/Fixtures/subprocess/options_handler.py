#!/usr/bin/env python3
"""The Python example handler reporting the raw options it opened its reply with, for the harness to judge AF-RE-9.

    options_handler.py KEY [undeclared]

Every vector is answered by Examples/python/appflip_handler.py, except that "opened" carries
"options": {KEY: true} instead of "universalLinksOnly": what an adapter sends when it records the options
dictionary the code passed (Docs/PROTOCOL.md, "The options as passed"). With "undeclared", its ready message
declares capabilities.universalLinksOnly false, so AF-RE-9 is not checked whatever the options say.
"""

import os
import sys

sys.dont_write_bytecode = True  # leave no __pycache__ in Examples/python
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "Examples", "python"))
import appflip_handler  # noqa: E402

KEY = sys.argv[1]
UNDECLARED = sys.argv[2:] == ["undeclared"]


def answer(message, request_code):
    response = appflip_handler.run(message, request_code)
    opened = response.get("opened")
    if opened is not None:
        del opened["universalLinksOnly"]
        opened["options"] = {KEY: True}
    return response


if __name__ == "__main__":
    ready = dict(appflip_handler.READY)
    ready["capabilities"] = dict(ready["capabilities"], universalLinksOnly=not UNDECLARED)
    appflip_handler.serve(answer=answer, ready=ready)
