#!/usr/bin/env bash
# Builds the benchmarks in Release and runs them once; README.md's performance table comes from one
# such run, compared as ratios. Not part of the test suite (timings are not pass/fail).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
export CCACHE_BASEDIR="$PWD" CCACHE_NOHASHDIR=1
cmake -S . -B build/bench -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_COMPILER=g++ \
  -DPTC_BUILD_GENERATOR=ON -DPTC_BUILD_BENCHMARKS=ON -DPTC_BUILD_TESTS=OFF -DPTC_BUILD_EXAMPLES=OFF
cmake --build build/bench -j2 --target ptc_bench bench_instructions steady_state_bench gen_bench scaling_bench memory_bench mcp_bench_server mcp_load agent_bench agent_provider_server
# Decode, dispatch and encode against their ceilings and pydantic, as ratios from one run (README table).
bench/report.py build/bench python3
# The same paths in instructions per call: the stable measure for comparing changes.
bench/callgrind.sh build/bench
build/bench/bench/gen_bench "$@"
# From a save of the quickstart's header to the end of the regeneration ptc-gen --watch starts.
bench/watch/save_to_regen.py build/bench/generator/tool/ptc-gen
build/bench/bench/scaling_bench "$@"
build/bench/bench/memory_bench
build/bench/bench/steady_state_bench
bench/mcp/run.sh build/bench
bench/agent/run.sh build/bench
