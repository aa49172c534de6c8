#!/usr/bin/env python3
"""The smallest adapter there is, for timing the harness's subprocess transport: protocol version 1, and every run
message is answered at once with "opened nothing", without parsing more than its seq.

    trivial_adapter.py

appflip-bench times it twice: through SubprocessAdapter, and with a bare write-a-line, read-a-line loop on the same
pipes (the raw round trip); the ratio is the transport's cost.
"""

import sys

READY = b'{"ready":true,"version":1,"implementation":{"name":"trivial","version":"1","language":"python"},' \
    b'"capabilities":{"configuration":true,"universalLinksOnly":false}}\n'


def main():
    read = sys.stdin.buffer.readline
    out = sys.stdout.buffer
    while True:
        line = read()
        if not line or b'"cmd":"stop"' in line:
            return
        if b'"cmd":"start"' in line:
            out.write(READY)
        else:
            start = line.index(b'"seq":') + 6
            end = line.index(b",", start)
            out.write(b'{"seq":' + line[start:end] + b',"opened":null,"authorization":[]}\n')
        out.flush()


if __name__ == "__main__":
    main()
