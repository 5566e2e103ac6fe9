#!/usr/bin/env bash
# Prints the path of a python3 that can `import jsonschema`.
for py in "$(command -v python3 || true)" /usr/bin/python3; do
  if [[ -n $py ]] && "$py" -c 'import jsonschema' >/dev/null 2>&1; then
    echo "$py"
    exit 0
  fi
done
echo "no python3 with the jsonschema package; run scripts/setup.sh" >&2
exit 1
