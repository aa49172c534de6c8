"""The smallest subprocess adapter: the protocol (Docs/PROTOCOL.md) around an App Flip handler.

    swift run appflip-conformance --exec 'python3 Examples/python/minimal_adapter.py'
"""
import json
import sys

from appflip_handler import handle_link  # your App Flip code goes here

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
