#!/usr/bin/env python3
"""Checks every vector file (Vectors/corpus, endpoint, token, association) against Vectors/schema/vector-file.schema.json
and the matcher's vectors (Vectors/matcher) against Vectors/schema/matcher-file.schema.json.

    check-vector-schema.py VECTORS_FOLDER

An independent reader: Python's jsonschema, not the suite's own strict decoder. Prints the first problems of the
first file that breaks the schema and exits 1; otherwise prints how many vectors match.
"""

import glob
import json
import sys

import jsonschema

folder = sys.argv[1]
schema = json.load(open(f"{folder}/schema/vector-file.schema.json"))
jsonschema.Draft202012Validator.check_schema(schema)
validator = jsonschema.Draft202012Validator(schema)
count = 0
for path in sorted(sum((glob.glob(f"{folder}/{kind}/*.json") for kind in ("corpus", "endpoint", "token", "association")), [])):
    data = json.load(open(path))
    errors = sorted(validator.iter_errors(data), key=lambda e: list(e.path))
    for error in errors[:5]:
        print(f"{path}: {'/'.join(map(str, error.path))}: {error.message[:300]}")
    if errors:
        sys.exit(1)
    count += len(data["vectors"])
print(f"{count} vectors match the schema")
matcher = jsonschema.Draft202012Validator(json.load(open(f"{folder}/schema/matcher-file.schema.json")))
for path in sorted(glob.glob(f"{folder}/matcher/*.json")):
    errors = list(matcher.iter_errors(json.load(open(path))))
    if errors:
        sys.exit(f"{path}: {errors[0].message[:300]}")
print("the matcher's vectors match their schema")
