#!/usr/bin/env python3
"""A protocol version 2 handler with a real bug class: it keeps the pending request in one shared place.

    swift run appflip-conformance --exec 'python3 Tests/Fixtures/subprocess/shared_pending_handler.py'

Like a Kotlin activity field or a React Native module property, `PENDING` holds the state and redirect_uri of the
link being handled while its code is requested; a second link that arrives meanwhile overwrites it, so the first
link's reply carries the second one's state. One link at a time, it is correct: only the interleaved vectors fail.
"""

import os
import sys
import threading

sys.dont_write_bytecode = True  # leave no __pycache__ in Examples/python
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "Examples", "python"))
import appflip_handler  # noqa: E402

PENDING = {}  # the app-wide pending request: the bug
LOCK = threading.Lock()


def answer(message, request_code):
    states = appflip_handler.named(appflip_handler.query_parameters(message["link"]), "state")
    own = states[0].text if len(states) == 1 else None
    asked = []

    def oauth_client(client_id, redirect_uri, scopes):
        # Stored while the app waits for its OAuth server... The later link overwrites the earlier one, as links
        # arrive at the app in step order, whichever order the harness's interleaved messages reach this process.
        with LOCK:
            step = message.get("step", 0)
            if PENDING.get("read", True) or PENDING["vector"] != message.get("vector") or step >= PENDING["step"]:
                PENDING.update(state=own, vector=message.get("vector"), step=step, read=False)
        asked.append(True)
        return request_code(client_id, redirect_uri, scopes)

    response = appflip_handler.run(message, oauth_client)
    opened = response["opened"]
    if asked and opened is not None and own is not None:  # ...and read back for the reply: another link may have replaced it
        encode = appflip_handler.percent_encode
        with LOCK:
            PENDING["read"] = True
            state = PENDING["state"]
        opened["url"] = opened["url"].replace("state=" + encode(own), "state=" + encode(state))
    return response


if __name__ == "__main__":
    appflip_handler.serve(answer=answer)
