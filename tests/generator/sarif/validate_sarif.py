#!/usr/bin/env python3
"""Validates SARIF logs against the SARIF 2.1.0 JSON schema (the one @microsoft/sarif-multitool-linux
ships as sarif-2.1.0.json, draft 2020-12) with python's jsonschema, as the JSON Schema conformance tests
use it.

    validate_sarif.py SCHEMA LOG...

Exit 0 when every log is valid; else 1, printing each error with its path."""
import json
import sys

from jsonschema import Draft202012Validator


def main(argv):
    if len(argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    with open(argv[1], encoding="utf-8") as f:
        schema = json.load(f)
    if schema.get("$schema") != "https://json-schema.org/draft/2020-12/schema":
        print(f"{argv[1]}: expected a draft 2020-12 schema, got {schema.get('$schema')}", file=sys.stderr)
        return 2
    Draft202012Validator.check_schema(schema)
    validator = Draft202012Validator(schema)
    failed = False
    for path in argv[2:]:
        with open(path, encoding="utf-8") as f:
            log = json.load(f)
        for error in validator.iter_errors(log):
            failed = True
            print(f"{path}: {'/'.join(str(p) for p in error.absolute_path)}: {error.message}", file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
