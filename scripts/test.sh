#!/usr/bin/env bash
# Installs what is missing, builds everything and runs the whole test suite:
#   0. formatting: every C++ source as .clang-format says (scripts/check-format.sh);
#   1. g++ build with ptc-gen: unit tests, CLI tests, conformance tests against python's jsonschema,
#      ptc-gen's extractor and emitter tests, the golden cases (compared, compiled and run), the
#      consumer project against an installed ptc and as a subdirectory, and the instruction budget of
#      decode and dispatch under callgrind (bench/budget.txt);
#   2. clang-19 build with AddressSanitizer + UndefinedBehaviorSanitizer: the runtime's tests once more
#      (codecs included), plus each libFuzzer target for a fixed time (PTC_FUZZ_SECONDS, default 20);
#      ptc-gen is not built here: LLVM's own allocations would count as leaks;
#   3. clang-19 build with ThreadSanitizer of the tests that call tools from many threads (the MCP
#      server under load included), with scripts/tsan.supp for the uninstrumented cpp-httplib.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
python=$(scripts/python.sh)
# Let ccache reuse objects across clones in different directories (CI builds a fresh clone each time).
export CCACHE_BASEDIR="$PWD" CCACHE_NOHASHDIR=1
fuzz_seconds=${PTC_FUZZ_SECONDS:-20}
# The sanitizer builds: -O1, as the sanitizers' own documentation advises, and line tables only (stack
# traces keep file:line; full debug information would double the compile and link time).
sanitizer_flags="-O1 -gline-tables-only -DNDEBUG"

echo "== formatting"
scripts/check-format.sh

echo "== g++ build"
cmake -S . -B build/gcc -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_COMPILER=g++ \
  -DPTC_PYTHON="$python" -DPTC_BUILD_EXAMPLES=ON -DPTC_BUILD_GENERATOR=ON
cmake --build build/gcc -j2
ctest --test-dir build/gcc -j2 --output-on-failure

echo "== clang-19 build with ASan + UBSan, and the fuzzers"
cmake -S . -B build/asan -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="$sanitizer_flags" \
  -DCMAKE_CXX_COMPILER=clang++-19 \
  -DPTC_SANITIZE=ON -DPTC_BUILD_FUZZERS=ON -DPTC_FUZZ_SECONDS="$fuzz_seconds" -DPTC_PYTHON="$python" \
  -DPTC_BUILD_EXAMPLES=ON -DPTC_BUILD_GENERATOR=OFF
cmake --build build/asan -j2
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
  ctest --test-dir build/asan -j2 --output-on-failure

echo "== clang-19 build with ThreadSanitizer: the multi-threaded tests"
tsan_tests=(core_lazy_json_test tools_concurrency_test tools_dispatch_registry_test tools_dispatch_memory_budget_test
            tools_filesystem_contract_test
            tools_filesystem_memory_test tools_filesystem_host_test tools_served_resource_test commands_concurrency_test
            mcp_server_test mcp_protocol_test mcp_worker_pool_test mcp_http_server_test mcp_http_transport_test
            commands_command_dispatcher_test agent_transport_http_transport_test agent_loop_agent_test
            agent_cli_agent_command_test agent_providers_provider_loop_test)
cmake -S . -B build/tsan -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="$sanitizer_flags" \
  -DCMAKE_CXX_COMPILER=clang++-19 \
  -DPTC_SANITIZE_THREAD=ON -DPTC_BUILD_EXAMPLES=OFF -DPTC_BUILD_GENERATOR=OFF -DPTC_PYTHON="$python"
cmake --build build/tsan -j2 --target "${tsan_tests[@]}"
for t in "${tsan_tests[@]}"; do
  TSAN_OPTIONS="halt_on_error=1:second_deadlock_stack=1:suppressions=$PWD/scripts/tsan.supp" "build/tsan/tests/$t"
done
