#!/usr/bin/env python3
"""Checks subprocess-protocol messages against the JSON Schemas in this folder (needs `pip install jsonschema`).

    check.py examples Docs/PROTOCOL.md
        Every message in the document: each line of a ```json block, and each `> ` (harness) or `< `
        (implementation) line of a ```text block.

    check.py proxy [--violations FILE] -- COMMAND [ARGS...]
        Sits between the harness and an implementation, forwarding every line unchanged and checking it:
            appflip-conformance --exec 'python3 Docs/protocol/check.py proxy -- python3 my_handler.py'
        Once the implementation's ready message names its version, each message is also checked against
        that version's rules (the schemas' $defs: version1, version2). A message that breaks its schema is
        printed to stderr (and appended to FILE); the proxy then exits with status 1, so the harness
        reports it on that vector.
"""

import json
import os
import pathlib
import subprocess
import sys
import threading

import jsonschema

FOLDER = pathlib.Path(__file__).resolve().parent
HARNESS = ("start", "run", "code", "stop")
IMPLEMENTATION = ("ready", "result", "code-request")
SCHEMAS = {name: json.loads((FOLDER / f"{name}.schema.json").read_text()) for name in HARNESS + IMPLEMENTATION}


def validator(name, version=None):
    """The schema's validator; with a version, also that version's rules ($defs.versionN), where it has some."""
    schema = SCHEMAS[name]
    if version is not None and f"version{version}" in schema.get("$defs", {}):
        schema = dict(schema, **{"$ref": f"#/$defs/version{version}"})
    return jsonschema.Draft202012Validator(schema)


VALIDATORS = {(name, version): validator(name, version) for name in SCHEMAS for version in (None, 1, 2)}


def kind(message, sender):
    """The schema a message is checked against, from who sent it and its shape."""
    if sender == "harness":
        command = message.get("cmd") if isinstance(message, dict) else None
        return command if command in HARNESS else "run"
    if isinstance(message, dict) and "ready" in message:
        return "ready"
    return "code-request" if isinstance(message, dict) and "codeRequest" in message else "result"


def problems(line, sender, version=None):
    """What is wrong with one line from `sender` (empty when nothing), the schema's name, and the message."""
    try:
        message = json.loads(line.decode("utf-8") if isinstance(line, bytes) else line)
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        return [f"not a JSON text in UTF-8: {error}"], None, None
    name = kind(message, sender)
    errors = sorted(VALIDATORS[name, version].iter_errors(message), key=lambda e: list(e.absolute_path))
    return [f"{'/'.join(map(str, e.absolute_path)) or '(message)'}: {e.message}" for e in errors], name, message


def examples(path):
    """Checks every message in a Markdown document; returns how many there were."""
    count, failures, fence, version = 0, 0, None, None
    for number, text in enumerate(pathlib.Path(path).read_text(encoding="utf-8").splitlines(), 1):
        if text.startswith("```"):
            fence = None if fence else (text[3:].strip() or "text")
            version = None  # a session's version holds from its ready message to the end of its block
            continue
        if fence == "json" and text.strip():
            sender = "implementation" if json.loads(text).get("cmd") is None else "harness"
        elif fence == "text" and text[:2] in ("> ", "< "):
            sender = "harness" if text[0] == ">" else "implementation"
            text = text[2:]
        else:
            continue
        count += 1
        found, name, message = problems(text, sender, version)
        if name == "ready" and not found and fence == "text":
            version = message["version"]
        for problem in found:
            failures += 1
            print(f"{path}:{number}: {sender} message ({name}): {problem}", file=sys.stderr)
    if failures:
        sys.exit(1)
    print(f"{path}: {count} example messages match the protocol schemas")


def proxy(arguments):
    """Forwards both ways at once (version 2 has several messages in flight, and code requests in between),
    checking every line; the version is the one the implementation's ready message chose."""
    violations = None
    if arguments[:1] == ["--violations"]:
        violations, arguments = arguments[1], arguments[2:]
    if arguments[:1] == ["--"]:
        arguments = arguments[1:]
    child = subprocess.Popen(arguments, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    counts = {}
    state = {"version": None}
    lock = threading.Lock()

    def check(line, sender):
        with lock:
            found, name, message = problems(line, sender, state["version"])
            counts[name] = counts.get(name, 0) + 1
            if name == "ready" and not found:
                state["version"] = message["version"]
            if found:
                text = f"check.py: {sender} message ({name}) breaks the protocol: {'; '.join(found)}: {line[:300]!r}"
                print(text, file=sys.stderr, flush=True)
                if violations:
                    with open(violations, "a", encoding="utf-8") as out:
                        out.write(text + "\n")
                child.kill()
                os._exit(1)
            return name

    def from_implementation():
        for answer in iter(child.stdout.readline, b""):
            if answer.strip():
                check(answer, "implementation")
            sys.stdout.buffer.write(answer)
            sys.stdout.buffer.flush()
        # The implementation closed its stdout: so does the proxy, with its status, so the harness sees it end.
        status = child.wait()
        summary = ", ".join(f"{count} {name}" for name, count in sorted(counts.items()))
        if status == 0:
            print(f"check.py: every message matched its schema ({summary})", file=sys.stderr, flush=True)
        else:
            print(f"check.py: the implementation exited with status {status} ({summary})", file=sys.stderr, flush=True)
        os._exit(status)

    reader = threading.Thread(target=from_implementation, daemon=True)
    reader.start()
    for line in iter(sys.stdin.buffer.readline, b""):
        if not line.strip():
            continue
        name = check(line, "harness")
        try:
            child.stdin.write(line)
            child.stdin.flush()
        except BrokenPipeError:
            break
        if name == "stop":
            break
    try:
        child.stdin.close()
    except BrokenPipeError:
        pass
    reader.join()


if __name__ == "__main__":
    if sys.argv[1:2] == ["examples"] and len(sys.argv) == 3:
        examples(sys.argv[2])
    elif sys.argv[1:2] == ["proxy"] and len(sys.argv) > 2:
        proxy(sys.argv[2:])
    else:
        sys.exit(__doc__)
