"""The smallest subprocess adapter: protocol version 2 (Docs/PROTOCOL.md) around an App Flip handler.

    swift run appflip-conformance --exec 'python3 Examples/python/minimal_adapter.py'
"""
import json
import queue
import sys
import threading

from appflip_handler import handle_link  # your App Flip code goes here

answers, lock = {}, threading.Lock()  # seq -> the harness's answer to that link's code request


def send(message):
    with lock:  # handlers answer from their own threads: one whole line at a time
        print(json.dumps(message), flush=True)


def run(message):  # one link, on a thread of its own: another may arrive while this one waits for its code
    def oauth_server(client_id, redirect_uri, scopes):  # your OAuth client: the harness answers for the server
        send({"seq": message["seq"], "codeRequest": {"clientId": client_id, "redirectUri": redirect_uri, "scopes": scopes}})
        return answers[message["seq"]].get()

    config = message["configuration"]
    url = handle_link(message["link"], config["clientId"], config["allowedRedirectUris"], oauth_server)
    send({"seq": message["seq"], "opened": {"url": url, "universalLinksOnly": True} if url is not None else None})


for line in sys.stdin:
    message = json.loads(line)
    if message["cmd"] == "start":
        implementation = {"name": "minimal-adapter", "version": "1.0.0", "language": "python"}
        capabilities = {"configuration": True, "universalLinksOnly": True}
        send({"ready": True, "version": 2, "implementation": implementation, "capabilities": capabilities})
    elif message["cmd"] == "run":
        answers[message["seq"]] = queue.Queue()
        threading.Thread(target=run, args=(message,), daemon=True).start()
    elif message["cmd"] == "code":
        answers[message["seq"]].put(message["outcome"])
    else:  # stop
        break
