#!/usr/bin/env bash
# Checks that the C++ sources match .clang-format, without changing them.
#
#   scripts/check-format.sh                  every tracked .cpp/.hpp file
#   scripts/check-format.sh --changed [BASE] only the .cpp/.hpp files changed against BASE
#                                            (default: origin/main if it exists, else HEAD),
#                                            including uncommitted changes
#
# Skipped: tests/generator/golden/ cases and expected outputs and tests/consumer/ (their bytes, line
# and column numbers are compared with what ptc-gen prints), and anything under build/.
#
# Uses clang-format-14, Debian 12's, which scripts/setup.sh installs: clang-format's output changes
# from version to version, so the check pins one (set CLANG_FORMAT to try another).
# Exits 0 when every checked file is formatted, 1 when some are not (or clang-format is missing).
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
cd "$(git rev-parse --show-toplevel)"

usage() {
  sed -n '2,13s/^# \{0,1\}//p' "${BASH_SOURCE[0]}"
}

changed=false
base=""
while (($# > 0)); do
  case "$1" in
    --changed)
      changed=true
      if (($# > 1)) && [[ "$2" != -* ]]; then
        base="$2"
        shift
      fi
      ;;
    -h | --help)
      usage
      exit 0
      ;;
    *)
      echo "check-format: unknown argument '$1'" >&2
      usage >&2
      exit 2
      ;;
  esac
  shift
done

clang_format="${CLANG_FORMAT:-}"
if [[ -z "$clang_format" ]]; then
  for candidate in clang-format-14; do
    if command -v "$candidate" >/dev/null 2>&1; then
      clang_format="$candidate"
      break
    fi
  done
fi
if [[ -n "${CLANG_FORMAT:-}" ]] && ! command -v "$clang_format" >/dev/null 2>&1; then
  echo "check-format: CLANG_FORMAT=$CLANG_FORMAT is not an executable." >&2
  exit 1
fi
if [[ -z "$clang_format" ]]; then
  echo "check-format: clang-format-14 not found." >&2
  echo "check-format: install it (scripts/setup.sh, or apt-get install clang-format-14) or set CLANG_FORMAT." >&2
  exit 1
fi

# Paths (NUL-separated on stdin) that are C++ sources this script checks.
keep_checked() {
  grep -z -E '\.(cpp|hpp)$' |
    grep -z -v -E '^(tests/generator/golden/(cases|expected)/|tests/consumer/|build/)' || true
}

files=()
if [[ "$changed" == true ]]; then
  if [[ -z "$base" ]]; then
    if git rev-parse --verify --quiet 'origin/main^{commit}' >/dev/null; then
      base=origin/main
    else
      base=HEAD
    fi
  fi
  if ! git rev-parse --verify --quiet "${base}^{commit}" >/dev/null; then
    echo "check-format: '$base' is not a commit." >&2
    exit 1
  fi
  # Compare against the merge base, so that changes made on BASE since this branch left it do not count.
  since="$(git merge-base HEAD "$base" 2>/dev/null || echo "$base")"
  while IFS= read -r -d '' f; do
    if [[ -f "$f" ]]; then files+=("$f"); fi
  done < <(git diff -z --name-only --diff-filter=d "$since" -- '*.cpp' '*.hpp' | keep_checked)
  scope="C++ files changed against $base"
else
  while IFS= read -r -d '' f; do
    if [[ -f "$f" ]]; then files+=("$f"); fi # skip files deleted from the work tree but still in the index
  done < <(git ls-files -z -- '*.cpp' '*.hpp' | keep_checked)
  scope="tracked C++ files"
fi

version="$("$clang_format" --version 2>/dev/null | head -n 1)"
if ((${#files[@]} == 0)); then
  echo "check-format: no $scope to check."
  exit 0
fi
echo "check-format: checking ${#files[@]} $scope with $clang_format ($version)"

offending=()
for f in "${files[@]}"; do
  if ! "$clang_format" --style=file --dry-run --Werror "$f" >/dev/null 2>&1; then
    offending+=("$f")
  fi
done

if ((${#offending[@]} == 0)); then
  echo "check-format: all ${#files[@]} files are formatted."
  exit 0
fi

echo "check-format: ${#offending[@]} of ${#files[@]} files are not formatted as .clang-format says:" >&2
printf '  %s\n' "${offending[@]}" >&2
echo "check-format: to see the changes:  $clang_format --dry-run <file>" >&2
printf 'check-format: to fix them:  %s -i' "$clang_format" >&2
printf ' %q' "${offending[@]}" >&2
printf '\n' >&2
exit 1
