#!/usr/bin/env python3
"""The Python example handler leaking a private parameter of the partner's into every reply it opens.

    leaking_handler.py

Every vector is answered by Examples/python/appflip_handler.py, except that each opened URL ends in
"&acme_session=SECRET": what a partner's own rule (ACME-1 in the tests) forbids.
"""

import os
import sys

sys.dont_write_bytecode = True  # leave no __pycache__ in Examples/python
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "Examples", "python"))
import appflip_handler  # noqa: E402


def answer(message, request_code):
    response = appflip_handler.run(message, request_code)
    if response.get("opened") is not None:
        response["opened"]["url"] += "&acme_session=SECRET"
    return response


if __name__ == "__main__":
    appflip_handler.serve(answer=answer)
