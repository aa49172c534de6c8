#!/usr/bin/env python3
"""Checks a JSON results report against Docs/results.schema.json with Python's jsonschema (formats included).

    check-results-json.py SCHEMA RESULTS

The Swift tests check sample documents with a subset of JSON Schema; this checks a real run's file with a full
validator, and that summary.total is the number of results.
"""

import json
import sys

import jsonschema

schema = json.load(open(sys.argv[1]))
jsonschema.Draft202012Validator.check_schema(schema)
doc = json.load(open(sys.argv[2]))
validator = jsonschema.Draft202012Validator(schema, format_checker=jsonschema.FormatChecker())
errors = sorted(validator.iter_errors(doc), key=lambda e: list(e.path))
for e in errors[:5]:
    print("/".join(map(str, e.path)), e.message[:300])
assert not errors, "results.json does not match Docs/results.schema.json"
assert doc["summary"]["total"] == len(doc["results"]), "summary.total is not the number of results"
print(f"results.json: {len(doc['results'])} results match the schema")
