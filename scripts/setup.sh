#!/usr/bin/env bash
# Installs the Debian 12 packages ptc builds and tests with (README.md, "Set-up"), skipping what is
# already there. Run as root (or with sudo available). Prints the python3 that has `jsonschema`.
set -euo pipefail

packages=(
  build-essential cmake ninja-build pkg-config ccache
  nlohmann-json3-dev libfmt-dev libsimdjson-dev libyaml-cpp-dev libre2-dev libkainjow-mustache-dev libcli11-dev
  libboost-dev libcpp-httplib-dev libcurl4-openssl-dev libssl-dev
  libgtest-dev libgmock-dev libbenchmark-dev
  clang-19 libclang-rt-19-dev libclang-19-dev libclang-cpp19-dev llvm-19-dev clang-format-14 clang-tidy-19 clangd-19
  python3 python3-matplotlib valgrind nginx
)

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

# The conformance tests need python3 with jsonschema; Debian's package provides it where pip's is absent.
if ! python3 -c 'import jsonschema' >/dev/null 2>&1 && ! /usr/bin/python3 -c 'import jsonschema' >/dev/null 2>&1; then
  missing+=(python3-jsonschema)
fi

# The MCP tests and benchmark run node and npm; a machine without them gets Debian's.
if ! command -v npm >/dev/null 2>&1; then
  missing+=(nodejs npm)
fi

if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}" >&2
  SUDO=""
  if [[ $(id -u) -ne 0 ]]; then SUDO="sudo"; fi
  $SUDO apt-get update -q >&2
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q --no-install-recommends "${missing[@]}" >&2
else
  echo "setup: all packages present" >&2
fi

# The MCP tests run the official MCP clients (tests/mcp/node), the conformance suite and the MCP
# Inspector's portability check with the Node 22 they need (tests/mcp/conformance, tests/mcp/inspector),
# the MCP benchmark the TypeScript SDK's server (bench/mcp/node), the agent benchmark Vercel's AI SDK
# with the Node 22 it needs (bench/agent/ai_sdk), the SARIF tests Microsoft's validator and the SARIF
# schema (tests/generator/sarif/node), and the token tests their oracle gpt-tokenizer (tests/tokens/node),
# at the versions each folder's lock file pins; npm ci installs exactly those, and again whenever a lock
# file changes.
for node_dir in tests/mcp/node tests/mcp/conformance tests/mcp/inspector bench/mcp/node bench/agent/ai_sdk tests/generator/sarif/node tests/tokens/node; do
  node_dir="$(dirname "$0")/../$node_dir"
  if ! cmp -s "$node_dir/package-lock.json" "$node_dir/node_modules/.ptc-installed-lock.json" 2>/dev/null; then
    echo "setup: installing the npm packages of $node_dir (npm ci)" >&2
    (cd "$node_dir" && npm ci --no-audit --no-fund --ignore-scripts >&2 &&
      cp package-lock.json node_modules/.ptc-installed-lock.json)
  fi
done
