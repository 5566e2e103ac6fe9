#!/usr/bin/env bash
# Installs what is missing, builds ptc-gen, the runtime and the examples, and runs the demos: the
# quickstart (tools generated from C++ declarations by ptc_generate), signatures, tools (dispatch with
# coercion, validation, policies and a handler exception), markdown commands, then `quickstart agent`
# against a scripted model.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
cmake -S . -B build/demo -G Ninja -DCMAKE_BUILD_TYPE=Release -DPTC_BUILD_TESTS=OFF -DPTC_BUILD_EXAMPLES=ON \
  -DPTC_BUILD_GENERATOR=ON >/dev/null
cmake --build build/demo -j2 --target quickstart signatures_example tools_example ptc scripted_provider >/dev/null
echo "== examples/quickstart: an issue tracker's tools, generated from include/tracker/tracker.hpp"
examples/quickstart/demo.sh build/demo/examples/quickstart/quickstart
echo
echo "== examples/signatures"
build/demo/examples/signatures/signatures_example
echo
echo "== examples/tools"
build/demo/examples/tools/tools_example
echo "== examples/tools as a command line"
set -x
build/demo/examples/tools/tools_example list
build/demo/examples/tools/tools_example call add '{"a":"2","b":3}'
build/demo/examples/tools/tools_example call add '{"a":"two"}' || true   # exit 1: the validation report
build/demo/examples/tools/tools_example definitions anthropic
set +x
echo
echo "== examples/commands: markdown commands with the ptc command line"
examples/commands/demo.sh build/demo/runtime/cli/ptc
echo
echo "== examples/agent: quickstart agent, with a scripted model in place of a provider"
examples/agent/demo.sh build/demo/examples/quickstart/quickstart build/demo/examples/agent/scripted_provider
