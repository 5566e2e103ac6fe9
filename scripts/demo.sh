#!/usr/bin/env bash
# Installs what is missing, builds the runtime and the examples, and runs the signatures demo.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
cmake -S . -B build/demo -G Ninja -DCMAKE_BUILD_TYPE=Release -DPTC_BUILD_TESTS=OFF -DPTC_BUILD_EXAMPLES=ON >/dev/null
cmake --build build/demo -j2 --target signatures_example ptc >/dev/null
build/demo/examples/signatures/signatures_example
