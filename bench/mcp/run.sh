#!/usr/bin/env bash
# The MCP benchmark in one run: ptc's server against the official TypeScript SDK's McpServer, both
# driven by mcp_load, whose own ceiling (against servers that do no work) is measured in the same run.
#   - suggest_priority, the quickstart's small tool (issue 31's target: the server's CPU per call at
#     most a tenth of TypeScript's): stdio with 1 and 32 calls in flight on the one pipe; Streamable
#     HTTP with 1 and 16 clients, answered on SSE streams and as JSON bodies.
#   - search_orders, a ~300-byte call: stdio with 1 and 4 in flight, HTTP with 1 and 4 clients, and 500
#     stateless clients against ptc alone. PTC_MCP_SEARCH_ORDERS=0 leaves these out.
# Every row gives the server's CPU per call over the measured window (mcp_load reads the server
# process's /proc/PID/stat as the window opens and closes); the run ends with TypeScript's CPU per call
# divided by ptc's for each row pair.
#   bench/mcp/run.sh BUILD_DIR [SECONDS]        (scripts/bench.sh passes build/bench)
# With PTC_BASELINE_SERVER=path/to/an/older/mcp_bench_server, that server gets rows too ("ptc-before"),
# so a change's before and after come from the same run.
set -euo pipefail
build=${1:?usage: bench/mcp/run.sh BUILD_DIR [SECONDS]}
seconds=${2:-5}
here=$(cd "$(dirname "$0")" && pwd)
load="$build/bench/mcp_load"
ptc_server="$build/bench/mcp_bench_server"
ts_server="$here/node/server.mjs"
baseline=${PTC_BASELINE_SERVER:-}
search_orders=${PTC_MCP_SEARCH_ORDERS:-1}
rows=$(mktemp)
server_pid=
cleanup() {
  if [[ -n $server_pid ]]; then kill "$server_pid" 2>/dev/null || true; fi
  rm -f "$rows"
}
trap cleanup EXIT

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
wait_port() { for _ in $(seq 100); do (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null && return; sleep 0.1; done; }
row() { "$load" --seconds "$seconds" --warmup 1 "$@" | tee -a "$rows"; }
# Whether an mcp_bench_server can answer calls with JSON bodies instead of SSE streams.
has_json_responses() { "$1" mcp --help 2>&1 | grep -q -- --json-responses; }

# The ptc servers of this run: ptc, and with a baseline ptc-before. The two take turns at going first
# (by the row group's number), so that neither always runs on the machine the other has just warmed.
ptcs() {
  if [[ -z $baseline ]]; then
    echo ptc
  elif (($1 % 2)); then
    echo ptc-before ptc
  else
    echo ptc ptc-before
  fi
}
binary_of() { if [[ $1 == ptc-before ]]; then echo "$baseline"; else echo "$ptc_server"; fi; }

# stdio_rows TOOL GROUP IN_FLIGHT: the generator, the ptc servers and TypeScript, each spawned by mcp_load.
stdio_rows() {
  local tool=$1 group=$2 in_flight=$3 server
  row --label generator --tool "$tool" --in-flight "$in_flight" --stdio -- "$load" --echo-stdio
  for server in $(ptcs "$group"); do
    row --label "$server" --tool "$tool" --in-flight "$in_flight" --stdio -- "$(binary_of "$server")" mcp
  done
  row --label typescript --tool "$tool" --in-flight "$in_flight" --stdio -- node "$ts_server" stdio
}

# http_row LABEL TOOL CLIENTS COMMAND...: starts the server on a free port (COMMAND's PORT replaced), runs
# one row against it with its pid for the CPU reading, and stops it. `$!` is the server itself: bash
# execs a backgrounded simple command, and node runs the TypeScript server in its own process.
http_row() {
  local label=$1 tool=$2 clients=$3 port
  shift 3
  port=$(free_port)
  "${@/PORT/$port}" 2>/dev/null &
  server_pid=$!
  wait_port "$port"
  row --label "$label" --tool "$tool" --clients "$clients" --server-pid "$server_pid" --http "http://127.0.0.1:$port/mcp"
  kill "$server_pid"
  wait "$server_pid" 2>/dev/null || true
  server_pid=
}

# http_rows TOOL GROUP CLIENTS: the generator (JSON), each ptc server on SSE and, where it can, JSON, and
# TypeScript on both.
http_rows() {
  local tool=$1 group=$2 clients=$3 server binary
  http_row generator "$tool" "$clients" "$load" --echo-http PORT
  for server in $(ptcs "$group"); do
    binary=$(binary_of "$server")
    http_row "$server" "$tool" "$clients" "$binary" mcp --http 127.0.0.1:PORT
    if has_json_responses "$binary"; then
      http_row "$server" "$tool" "$clients" "$binary" mcp --json-responses --http 127.0.0.1:PORT
    else
      echo "# $server http tool=$tool clients=$clients: no JSON-response mode (no --json-responses in mcp --help)"
    fi
  done
  http_row typescript "$tool" "$clients" node "$ts_server" http-sse PORT
  http_row typescript "$tool" "$clients" node "$ts_server" http-json PORT
}

echo "# $(date -u +%Y-%m-%dT%H:%MZ), $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)"
echo "# node $(node --version), ${seconds} s per row after 1 s of warm-up"
group=0
for in_flight in 1 32; do stdio_rows suggest_priority $((group++)) "$in_flight"; done
for clients in 1 16; do http_rows suggest_priority $((group++)) "$clients"; done
if [[ $search_orders != 0 ]]; then
  for n in 1 4; do
    stdio_rows search_orders $((group++)) "$n"
    http_rows search_orders $((group++)) "$n"
  done
  # Many connections at once: 500 clients, each on its own connection with one 2026-07-28 call in flight
  # (stateless, so no session cap applies). ptc only: the TypeScript SDK's server speaks 2025 sessions.
  port=$(free_port)
  "$ptc_server" mcp --http "127.0.0.1:$port" 2>/dev/null &
  server_pid=$!
  wait_port "$port"
  "$load" --seconds "$seconds" --warmup 1 --label ptc-many --tool search_orders --clients 500 --stateless \
    --server-pid "$server_pid" --http "http://127.0.0.1:$port/mcp"
  kill "$server_pid"
  wait "$server_pid" 2>/dev/null || true
  server_pid=
fi

echo
python3 "$here/ratios.py" "$rows"
