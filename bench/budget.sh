#!/usr/bin/env bash
# The instruction budget, a test of the suite (bench.instruction_budget): each case of bench_instructions
# counted by bench/callgrind.sh must stay within bench/budget.txt. Instruction counts under callgrind do
# not move from run to run, so a change that makes decode or dispatch slower fails here instead of
# hiding in the noise of the timed benchmarks.
#   bench/budget.sh BENCH_INSTRUCTIONS BUDGET_FILE
set -euo pipefail
exe=${1:?usage: bench/budget.sh BENCH_INSTRUCTIONS BUDGET_FILE}
budget=${2:?usage: bench/budget.sh BENCH_INSTRUCTIONS BUDGET_FILE}
here=$(dirname "$0")

declare -A max_instructions max_allocations
cases=()
while read -r name instructions allocations; do
  [[ -z $name || $name == \#* ]] && continue
  max_instructions[$name]=$instructions
  max_allocations[$name]=$allocations
  cases+=("$name")
done <"$budget"
[ ${#cases[@]} -gt 0 ] || { echo "budget.sh: no cases in $budget" >&2; exit 2; }
known=$("$exe" --list)
for c in "${cases[@]}"; do
  grep -qx "$c" <<<"$known" || { echo "budget.sh: $budget names a case bench_instructions does not have: $c" >&2; exit 2; }
done

table=$("$here/callgrind.sh" "$exe" "${cases[@]}")
echo "$table"
failed=0
seen=0
while IFS='|' read -r _ name instructions allocations _; do
  name=${name// /}
  [[ -n ${max_instructions[$name]:-} ]] || continue
  seen=$((seen + 1))
  instructions=${instructions// /}
  allocations=${allocations// /}
  if (( instructions > max_instructions[$name] )); then
    echo "over budget: $name takes $instructions instructions per call, the budget is ${max_instructions[$name]}"
    failed=1
  fi
  if awk -v a="$allocations" -v m="${max_allocations[$name]}" 'BEGIN { exit !(a > m) }'; then
    echo "over budget: $name makes $allocations allocations per call, the budget is ${max_allocations[$name]}"
    failed=1
  fi
done <<<"$table"
if (( seen != ${#cases[@]} )); then
  echo "budget.sh: callgrind.sh measured $seen of the ${#cases[@]} cases in $budget" >&2
  exit 1
fi
exit $failed
