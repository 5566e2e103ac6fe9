#!/usr/bin/env bash
# Instructions per call for each case of bench_instructions, counted by callgrind: deterministic on
# this machine, so before/after comparisons of a change read these rather than timings; and the
# allocations per call, which the program counts itself.
#   bench/callgrind.sh BUILD_DIR|BENCH_INSTRUCTIONS [case...]
# Each case runs twice, with FEW and MANY iterations; (instructions(MANY) - instructions(FEW)) /
# (MANY - FEW) leaves out start-up and the first calls. FEW is above the session's log limit (1000),
# so dispatch is measured in its steady state, dropping the oldest event on every call.
set -euo pipefail
where=${1:?usage: bench/callgrind.sh BUILD_DIR|BENCH_INSTRUCTIONS [case...]}
shift
# A build directory, or the executable itself (bench/budget.sh, from ctest).
if [ -f "$where" ]; then exe=$where; else exe="$where/bench/bench_instructions"; fi
command -v valgrind >/dev/null || { echo "callgrind.sh: valgrind is not installed (scripts/setup.sh installs it)" >&2; exit 2; }
[ -x "$exe" ] || { echo "callgrind.sh: $exe is missing; build the bench_instructions target" >&2; exit 2; }
few=1200
many=2200
cases=("$@")
[ ${#cases[@]} -gt 0 ] || mapfile -t cases < <("$exe" --list)

collected() {
  valgrind --tool=callgrind --callgrind-out-file=/dev/null "$exe" "$1" "$2" 2>&1 |
    sed -n 's/.*Collected : \([0-9]*\).*/\1/p'
}

# Allocations (operator new) are counted by the program itself, natively.
allocations() { "$exe" "$1" "$2" 2>&1 >/dev/null | sed -n 's/^allocations: \([0-9]*\)$/\1/p'; }

printf '| case | instructions per call | allocations per call |\n|---|---|---|\n'
for c in "${cases[@]}"; do
  a=$(collected "$c" "$few")
  b=$(collected "$c" "$many")
  x=$(allocations "$c" "$few")
  y=$(allocations "$c" "$many")
  printf '| %s | %d | %s |\n' "$c" $(( (b - a) / (many - few) )) "$(awk -v x="$x" -v y="$y" -v n=$((many - few)) 'BEGIN { printf "%.1f", (y - x) / n }')"
done
