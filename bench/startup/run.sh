#!/usr/bin/env bash
# Start-up cost of generated tools (issue 31, target 3): the same program served by ptc::cli::run with
# 1000 generated tools (startup_many_tools) and with none (startup_no_tools), timed as a client sees it
# and counted by callgrind. Prints a table of both and their difference.
#   bench/startup/run.sh BUILD_DIR [RUNS]      (BUILD_DIR built with PTC_BUILD_BENCHMARKS=ON, Release;
#                                               targets startup_many_tools startup_no_tools startup_probe)
# Rows: `list` (spawn to exit, output read), `mcp` (spawn to the tools/list answer after initialize and
# notifications/initialized): best and median of RUNS runs (default 20) after one warm-up, the two
# programs taking turns so that the machine's load falls on both alike; then the
# instructions of each under callgrind (input from a file, so they include the server's exit at end of
# input), and where those instructions go, per tool. With PTC_STARTUP_TOP=N (default 25) the N
# functions of highest inclusive cost in the 1000-tool program's runs follow; the callgrind files stay
# in BUILD_DIR/bench/startup_callgrind. PTC_STARTUP_MANY and PTC_STARTUP_NONE name other programs to
# compare (a change's build of the same two), with the same startup_probe.
set -euo pipefail
build=${1:?usage: bench/startup/run.sh BUILD_DIR [RUNS]}
runs=${2:-20}
top=${PTC_STARTUP_TOP:-25}
probe="$build/bench/startup_probe"
many=${PTC_STARTUP_MANY:-$build/bench/startup_many_tools}
none=${PTC_STARTUP_NONE:-$build/bench/startup_no_tools}
for exe in "$probe" "$many" "$none"; do
  [ -x "$exe" ] || { echo "run.sh: $exe is missing; build startup_many_tools startup_no_tools startup_probe" >&2; exit 2; }
done
command -v valgrind >/dev/null || { echo "run.sh: valgrind is not installed" >&2; exit 2; }
out="$build/bench/startup_callgrind"
mkdir -p "$out"
# The same three messages startup_probe sends, for the runs under callgrind.
requests="$out/requests.jsonl"
cat >"$requests" <<'JSON'
{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"startup_probe","version":"1"}}}
{"jsonrpc":"2.0","method":"notifications/initialized"}
{"jsonrpc":"2.0","id":1,"method":"tools/list"}
JSON

# callgrind's total of instructions for `EXE COMMAND < INPUT`; the profile goes to FILE.
instructions() {
  local file=$1 exe=$2 command=$3 input=$4
  valgrind --tool=callgrind --callgrind-out-file="$file" "$exe" "$command" <"$input" 2>&1 >/dev/null |
    sed -n 's/.*Collected : \([0-9]*\).*/\1/p'
}

# Check that both programs answer, and that the 1000-tool one lists what it should.
tools=$("$many" list | wc -l)
[ "$("$none" list | wc -l)" -eq 0 ] || { echo "run.sh: $none lists tools" >&2; exit 1; }

echo "# $(date -u +%Y-%m-%dT%H:%MZ), $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)"
echo "# $tools tools against none; times are the best and median of $runs runs, in ms"
{ read -r list_none_best list_none_median list_none_bytes; read -r list_many_best list_many_median list_many_bytes; } \
  < <("$probe" list "$runs" "$none" "$many")
{ read -r mcp_none_best mcp_none_median mcp_none_bytes; read -r mcp_many_best mcp_many_median mcp_many_bytes; } \
  < <("$probe" mcp "$runs" "$none" "$many")
ir_list_none=$(instructions "$out/list_none.out" "$none" list /dev/null)
ir_list_many=$(instructions "$out/list_many.out" "$many" list /dev/null)
ir_mcp_none=$(instructions "$out/mcp_none.out" "$none" mcp "$requests")
ir_mcp_many=$(instructions "$out/mcp_many.out" "$many" mcp "$requests")

row() { awk -v name="$1" -v a="$2" -v b="$3" -v f="$4" 'BEGIN { printf "| %s | " f " | " f " | " f " |\n", name, a, b, b - a }'; }
printf '| measure | no tools | %s tools | difference |\n|---|---|---|---|\n' "$tools"
row "list, best (ms)" "$list_none_best" "$list_many_best" "%.2f"
row "list, median (ms)" "$list_none_median" "$list_many_median" "%.2f"
row "mcp initialize + tools/list, best (ms)" "$mcp_none_best" "$mcp_many_best" "%.2f"
row "mcp initialize + tools/list, median (ms)" "$mcp_none_median" "$mcp_many_median" "%.2f"
row "list, instructions" "$ir_list_none" "$ir_list_many" "%d"
row "mcp, instructions" "$ir_mcp_none" "$ir_mcp_many" "%d"
row "list, bytes out" "$list_none_bytes" "$list_many_bytes" "%d"
row "mcp, bytes out" "$mcp_none_bytes" "$mcp_many_bytes" "%d"

# Inclusive instructions of the functions start-up goes through, per tool: (1000 tools - none) / tools.
# A function's first entry in callgrind_annotate's inclusive listing (recursive cycles left out); 0
# where the program never ran it. (awk reads to the end: an early exit would fail the pipeline.)
inclusive() {
  callgrind_annotate --inclusive=yes --threshold=100 "$1" 2>/dev/null | grep -v "'[0-9]" |
    awk -v f="$2" '!found && index($0, f) && $1 ~ /^[0-9,]+$/ { gsub(",", "", $1); found = $1 } END { print found + 0 }'
}
echo
printf '| %s | %s | %s | %s |\n|---|---|---|---|\n' "run: function (inclusive)" "no tools" "$tools tools" "per tool"
for run in list mcp; do
  for f in "ptc_gen::many_tools::tools()" "ptc::Signature::from_malli(" "ptc::Tool::Tool(" "ptc::ToolRegistry::add(" \
           "ptc::cli::run(" "ptc::Signature::render[" "ptc::mcp::Protocol::initialize[" "ptc::mcp::Protocol::list_tools" \
           "ptc::mcp_tool[" "ptc::mcp_tool_text[" "ptc::to_json_schemas(" "ptc::mcp::jsonrpc::line(" "_dl_start" \
           "__run_exit_handlers"; do
    a=$(inclusive "$out/${run}_none.out" "$f")
    b=$(inclusive "$out/${run}_many.out" "$f")
    [ "$a" = 0 ] && [ "$b" = 0 ] && continue
    awk -v name="$run: $f" -v a="$a" -v b="$b" -v n="$tools" 'BEGIN { printf "| %s | %d | %d | %.0f |\n", name, a, b, (b - a) / n }'
  done
done

if [ "$top" -gt 0 ]; then
  for run in list mcp; do
    echo
    echo "# $run, $tools tools: the $top functions of highest inclusive cost (callgrind_annotate --inclusive=yes)"
    callgrind_annotate --inclusive=yes "$out/${run}_many.out" 2>/dev/null | grep -v "'[0-9]" |
      grep -E '^ *[0-9,]+ ' | cut -c1-200 | awk -v n="$top" 'NR <= n'
  done
fi
