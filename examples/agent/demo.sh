#!/usr/bin/env bash
# `quickstart agent` against a scripted model: the calls it makes are run through the quickstart's
# tools (a quoted number repaired, an unknown priority and a misspelt tool name sent back to the model,
# which corrects itself), and its answer is printed.
# Usage: examples/agent/demo.sh path/to/quickstart path/to/scripted_provider
set -euo pipefail
quickstart="$1"
provider="$2"
script="$(dirname "$0")/script.json"
coproc PROVIDER { "$provider" "$script"; }
trap 'exec {PROVIDER[1]}>&-; wait' EXIT
read -r base_url <&"${PROVIDER[0]}"
set -x
"$quickstart" agent --base-url "$base_url" --model scripted "File the crash on save unless it is already open."
{ set +x; } 2>/dev/null
