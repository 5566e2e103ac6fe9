#!/usr/bin/env bash
# The MCP benchmark in one run: search_orders over stdio and Streamable HTTP, ptc's server against the
# official TypeScript SDK's McpServer, both driven by mcp_load, whose own ceiling (against servers that
# do no work) is measured in the same run. Prints each row, then ptc's ratios to the TypeScript server.
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
rows=$(mktemp)
pids=()
trap 'kill "${pids[@]}" 2>/dev/null || true; rm -f "$rows"' EXIT

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
wait_port() { for _ in $(seq 100); do (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null && return; sleep 0.1; done; }
row() { "$load" --seconds "$seconds" --warmup 1 "$@" | tee -a "$rows"; }

echo "# $(date -u +%Y-%m-%dT%H:%MZ), $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)"
echo "# node $(node --version), ${seconds} s per row after 1 s of warm-up"
for clients in 1 4; do
  # With a baseline, the before and after servers take turns at going first, so that neither always
  # runs on the machine the other has just warmed (or left busy).
  ptcs=(ptc)
  if [[ -n $baseline ]]; then
    if [[ $clients == 1 ]]; then ptcs=(ptc ptc-before); else ptcs=(ptc-before ptc); fi
  fi
  row --label generator --clients "$clients" --stdio -- "$load" --echo-stdio
  for server in "${ptcs[@]}"; do
    case $server in
      ptc) row --label ptc --clients "$clients" --stdio -- "$ptc_server" mcp ;;
      ptc-before) row --label ptc-before --clients "$clients" --stdio -- "$baseline" mcp ;;
    esac
  done
  row --label typescript --clients "$clients" --stdio -- node "$ts_server" stdio
  for server in generator "${ptcs[@]}" typescript; do
    port=$(free_port)
    case $server in
      generator) "$load" --echo-http "$port" & ;;
      ptc) "$ptc_server" mcp --http "127.0.0.1:$port" 2>/dev/null & ;;
      ptc-before) "$baseline" mcp --http "127.0.0.1:$port" 2>/dev/null & ;;
      typescript) node "$ts_server" http "$port" 2>/dev/null & ;;
    esac
    pids+=($!)
    wait_port "$port"
    row --label "$server" --clients "$clients" --http "http://127.0.0.1:$port/mcp"
    kill "${pids[-1]}"
    wait "${pids[-1]}" 2>/dev/null || true
  done
done

# Many connections at once: 500 clients, each on its own connection with one 2026-07-28 call in flight
# (stateless, so no session cap applies). ptc only: the TypeScript SDK's server speaks 2025 sessions.
port=$(free_port)
"$ptc_server" mcp --http "127.0.0.1:$port" 2>/dev/null &
pids+=($!)
wait_port "$port"
"$load" --seconds "$seconds" --warmup 1 --label ptc-many --clients 500 --stateless --http "http://127.0.0.1:$port/mcp"
kill "${pids[-1]}"
wait "${pids[-1]}" 2>/dev/null || true

echo
echo "# ptc / typescript (throughput: higher is better; p99: lower is better)"
awk '{
  split($3, c, "="); split($5, r, "="); split($7, p, "=");
  key = $2 " " c[2]; rate[$1, key] = r[2]; p99[$1, key] = p[2]; keys[key] = 1
} END {
  for (k in keys) printf "%s clients=%s: calls/s %.0f vs %.0f (%.2fx), p99 %.0f us vs %.0f us (%.2fx); generator alone %.0f calls/s\n",
    substr(k, 1, index(k, " ") - 1), substr(k, index(k, " ") + 1), rate["ptc", k], rate["typescript", k],
    rate["ptc", k] / rate["typescript", k], p99["ptc", k], p99["typescript", k], p99["ptc", k] / p99["typescript", k],
    rate["generator", k]
  for (k in keys) if (("ptc-before", k) in rate)
    printf "%s clients=%s: ptc after / before: calls/s %.0f vs %.0f (%.2fx), p99 %.0f us vs %.0f us\n",
      substr(k, 1, index(k, " ") - 1), substr(k, index(k, " ") + 1), rate["ptc", k], rate["ptc-before", k],
      rate["ptc", k] / rate["ptc-before", k], p99["ptc", k], p99["ptc-before", k]
}' "$rows" | sort
