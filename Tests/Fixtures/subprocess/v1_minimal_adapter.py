"""The smallest subprocess adapter as it was for protocol version 1, kept to check that version 1 adapters keep
working (Docs/PROTOCOL.md); unchanged but for the path to the handler.

    swift run appflip-conformance --exec 'python3 Tests/Fixtures/subprocess/v1_minimal_adapter.py'
"""
import json
import os
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "Examples", "python"))

from appflip_handler import handle_link  # noqa: E402

for line in sys.stdin:
    message = json.loads(line)
    if message["cmd"] == "start":
        answer = {
            "ready": True,
            "version": 1,
            "implementation": {"name": "minimal-adapter", "version": "1.0.0", "language": "python"},
            "capabilities": {"configuration": True, "universalLinksOnly": True},
        }
    elif message["cmd"] == "run":
        requests = []

        def oauth_server(client_id, redirect_uri, scopes):  # your OAuth client, scripted by the vector
            requests.append({"clientId": client_id, "redirectUri": redirect_uri, "scopes": scopes})
            return message["outcome"]

        config = message["configuration"]
        url = handle_link(message["link"], config["clientId"], config["allowedRedirectUris"], oauth_server)
        opened = {"url": url, "universalLinksOnly": True} if url is not None else None
        answer = {"seq": message["seq"], "opened": opened, "authorization": requests}
    else:  # stop
        break
    print(json.dumps(answer), flush=True)
