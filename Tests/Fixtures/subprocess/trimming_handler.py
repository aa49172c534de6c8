#!/usr/bin/env python3
"""The Python example handler, broken in several ways at once: it deletes every encoded space, tab and line feed
(%20, +, %09, %0A) from the link before reading it, as a handler that trims its values would.

A state, client id, scope or redirect_uri with such a byte then reads as another value: the fuzzer finds several
distinct failures (AF-RE-2, AF-V-1, AF-V-2, AF-RU-4, ...), which `fuzz --jobs N` must report alike for every N.
"""

import os
import re
import sys

sys.dont_write_bytecode = True  # leave no __pycache__ in Examples/python
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "Examples", "python"))
import appflip_handler  # noqa: E402


def answer(message, request_code):
    trimmed = dict(message, link=re.sub(r"%20|\+|%09|%0A", "", message["link"], flags=re.IGNORECASE))
    return appflip_handler.run(trimmed, request_code)


if __name__ == "__main__":
    appflip_handler.serve(answer=answer)
