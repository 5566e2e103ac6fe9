#!/usr/bin/env bash
# Markdown commands with the `ptc` command line: list them, invoke one, dispatch one through the signal
# bus, and watch a failure. Usage: examples/commands/demo.sh [path/to/ptc]
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
ptc="${1:-ptc}"
empty="$(mktemp -d)"   # an empty global root, so ~/.jido_code does not join in
trap 'rm -rf "$empty"' EXIT
roots=(--root "$here" --global-root "$empty")

set -x
"$ptc" command list "${roots[@]}"
# Run now: the result holds the prompt a model would get, and the permissions narrowed to the
# command's allowed-tools.
"$ptc" command invoke review "${roots[@]}" --params '{"branch": "feature/login"}'
# Through the bus: command.invoke -> hooks -> command.completed, one JSON signal per line.
"$ptc" command dispatch release-notes "${roots[@]}" --params '{"since": "v1.2.0"}' --signals
# A required param is missing: command.failed, the error on stderr, exit 1.
"$ptc" command dispatch review "${roots[@]}" --signals || true
