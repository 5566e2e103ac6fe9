#!/usr/bin/env bash
# The quickstart's tools as the model sees them, and calls: a quirky one that is repaired with
# warnings, a broken one whose report goes back to the model, and a tool that fails.
# Usage: examples/quickstart/demo.sh path/to/quickstart
set -euo pipefail
quickstart="$1"
set -x
"$quickstart" prompt
"$quickstart" schema --profile openai | sed -n '1,/"output_schema"/p'   # the first tool
# LLM quirks: a quoted number and a key order of its own; repaired, with warnings.
"$quickstart" call search_issues '{"status": "open", "limit": "5", "query": "crash"}'
# Broken: a missing title, an unknown priority, a string for a list. Exit 1 and the report.
"$quickstart" call create_issue '{"priority": "critical", "labels": "bug"}' || true
# A variant argument (an issue number or its key), and an exception from the tool, which the model
# reads as a failed result.
"$quickstart" call close_issue '{"issue": "PTC-2", "reason": "fixed"}'
"$quickstart" call close_issue '{"issue": "PTC-99"}' || true
# A tool that asks the user before it deletes (MCP elicitation): called without an MCP client, there is
# nobody to ask, and it refuses with a message saying so.
"$quickstart" call delete_issue '{"issue": "PTC-1"}' || true
