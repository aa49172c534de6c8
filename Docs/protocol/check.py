#!/usr/bin/env python3
"""Checks subprocess-protocol messages against the JSON Schemas in this folder (needs `pip install jsonschema`).

    check.py examples Docs/PROTOCOL.md
        Every message in the document: each line of a ```json block, and each `> ` (harness) or `< `
        (implementation) line of a ```text block.

    check.py proxy [--violations FILE] -- COMMAND [ARGS...]
        Sits between the harness and an implementation, forwarding every line unchanged and checking it:
            appflip-conformance --exec 'python3 Docs/protocol/check.py proxy -- python3 my_handler.py'
        A message that breaks its schema is printed to stderr (and appended to FILE); the proxy then exits
        with status 1, so the harness reports it on that vector.
"""

import json
import pathlib
import subprocess
import sys

import jsonschema

FOLDER = pathlib.Path(__file__).resolve().parent
HARNESS = ("start", "run", "stop")
IMPLEMENTATION = ("ready", "result")
VALIDATORS = {
    name: jsonschema.Draft202012Validator(json.loads((FOLDER / f"{name}.schema.json").read_text()))
    for name in HARNESS + IMPLEMENTATION
}


def kind(message, sender):
    """The schema a message is checked against, from who sent it and its shape."""
    if sender == "harness":
        command = message.get("cmd") if isinstance(message, dict) else None
        return command if command in HARNESS else "run"
    return "ready" if isinstance(message, dict) and "ready" in message else "result"


def problems(line, sender):
    """What is wrong with one line from `sender` (empty when nothing), and the schema's name."""
    try:
        message = json.loads(line.decode("utf-8") if isinstance(line, bytes) else line)
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        return [f"not a JSON text in UTF-8: {error}"], None
    name = kind(message, sender)
    errors = sorted(VALIDATORS[name].iter_errors(message), key=lambda e: list(e.absolute_path))
    return [f"{'/'.join(map(str, e.absolute_path)) or '(message)'}: {e.message}" for e in errors], name


def examples(path):
    """Checks every message in a Markdown document; returns how many there were."""
    count, failures, fence = 0, 0, None
    for number, text in enumerate(pathlib.Path(path).read_text(encoding="utf-8").splitlines(), 1):
        if text.startswith("```"):
            fence = None if fence else (text[3:].strip() or "text")
            continue
        if fence == "json" and text.strip():
            sender = "implementation" if json.loads(text).get("cmd") is None else "harness"
        elif fence == "text" and text[:2] in ("> ", "< "):
            sender = "harness" if text[0] == ">" else "implementation"
            text = text[2:]
        else:
            continue
        count += 1
        found, name = problems(text, sender)
        for problem in found:
            failures += 1
            print(f"{path}:{number}: {sender} message ({name}): {problem}", file=sys.stderr)
    if failures:
        sys.exit(1)
    print(f"{path}: {count} example messages match the protocol schemas")


def proxy(arguments):
    violations = None
    if arguments[:1] == ["--violations"]:
        violations, arguments = arguments[1], arguments[2:]
    if arguments[:1] == ["--"]:
        arguments = arguments[1:]
    child = subprocess.Popen(arguments, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    counts = {}

    def check(line, sender):
        found, name = problems(line, sender)
        counts[name] = counts.get(name, 0) + 1
        if found:
            text = f"check.py: {sender} message ({name}) breaks the protocol: {'; '.join(found)}: {line[:300]!r}"
            print(text, file=sys.stderr, flush=True)
            if violations:
                with open(violations, "a", encoding="utf-8") as out:
                    out.write(text + "\n")
            child.kill()
            sys.exit(1)
        return name

    for line in iter(sys.stdin.buffer.readline, b""):
        if not line.strip():
            continue
        name = check(line, "harness")
        child.stdin.write(line)
        child.stdin.flush()
        if name == "stop":
            break
        answer = b""
        while not answer.strip():
            answer = child.stdout.readline()
            if not answer:
                print("check.py: the implementation closed its stdout", file=sys.stderr, flush=True)
                sys.exit(1)
        check(answer, "implementation")
        sys.stdout.buffer.write(answer)
        sys.stdout.buffer.flush()
    child.stdin.close()
    status = child.wait()
    summary = ", ".join(f"{count} {name}" for name, count in sorted(counts.items()))
    print(f"check.py: every message matched its schema ({summary})", file=sys.stderr)
    sys.exit(status)


if __name__ == "__main__":
    if sys.argv[1:2] == ["examples"] and len(sys.argv) == 3:
        examples(sys.argv[2])
    elif sys.argv[1:2] == ["proxy"] and len(sys.argv) > 2:
        proxy(sys.argv[2:])
    else:
        sys.exit(__doc__)
