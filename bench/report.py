#!/usr/bin/env python3
"""Runs the argument, dispatch and encode contestants in one script run and prints the ratios the
performance issue sets targets for, as the markdown table README.md "Performance" shows.

    bench/report.py BUILD_DIR [PYTHON]

- ptc_bench (one process): the generated decoder, the hand-written simdjson On-Demand decoder (the
  practical ceiling), nlohmann, the runtime validator, full dispatch to each provider's reply, and the
  encoder, each repeated 5 times; the table shows medians with the spread (min..max of the repetitions).
- bench/python/pydantic_peer.py under PYTHON (default: python3): pydantic-core on the same bytes. When
  pydantic is missing, its rows say so and the rest are still printed.
"""
import json
import os
import subprocess
import sys

REPETITIONS = 5


def run_ptc_bench(build):
    exe = os.path.join(build, "bench", "ptc_bench")
    # Repetitions interleaved at random across the benchmarks: a burst of noise from the host then
    # slows one repetition of several contestants rather than every repetition of one, whose median
    # (and every ratio to it) it would move.
    out = subprocess.run([exe, f"--benchmark_repetitions={REPETITIONS}", "--benchmark_enable_random_interleaving=true",
                          "--benchmark_format=json"],
                         check=True, stdout=subprocess.PIPE, text=True).stdout
    runs = {}
    for b in json.loads(out)["benchmarks"]:
        if b.get("run_type") != "iteration":
            continue
        scale = {"ns": 1, "us": 1e3, "ms": 1e6, "s": 1e9}[b["time_unit"]]
        entry = runs.setdefault(b["run_name"], {"ns": [], "bytes_per_second": []})
        entry["ns"].append(b["real_time"] * scale)
        if "bytes_per_second" in b:
            entry["bytes_per_second"].append(b["bytes_per_second"])
    return runs


def run_pydantic(python):
    peer = os.path.join(os.path.dirname(os.path.abspath(__file__)), "python", "pydantic_peer.py")
    done = subprocess.run([python, peer], stdout=subprocess.PIPE, text=True)
    if done.returncode != 0:
        return None, {}
    report = json.loads(done.stdout)
    return report["pydantic"], {r["name"]: r for r in report["results"]}


def median(values):
    s = sorted(values)
    return s[len(s) // 2]


def main():
    if len(sys.argv) < 2:
        sys.exit("usage: bench/report.py BUILD_DIR [PYTHON]")
    build = sys.argv[1]
    python = sys.argv[2] if len(sys.argv) > 2 else "python3"
    runs = run_ptc_bench(build)
    version, py = run_pydantic(python)

    def ns(name):
        return median(runs[name]["ns"])

    def shown(name):
        v = runs[name]["ns"]
        return f"{median(v):,.0f} ns ({min(v):,.0f}..{max(v):,.0f})"

    def py_shown(name):
        if name not in py:
            return "not measured: pydantic is not installed for " + python
        r = py[name]
        return f"{r['median_ns']:,.0f} ns ({r['min_ns']:,.0f}..{r['max_ns']:,.0f})"

    def verdict(ok):
        return "met" if ok else "**not met**"

    rows = []
    for order, arg in (("in order", 0), ("keys permuted", 1)):
        decode, ceiling = ns(f"BM_Decode_Generated/{arg}"), ns(f"BM_Decode_OnDemand/{arg}")
        rows.append((f"decode, {order} (`BM_Decode_Generated/{arg}`)", shown(f"BM_Decode_Generated/{arg}"), ""))
        rows.append((f"hand-written simdjson On-Demand, {order} (`BM_Decode_OnDemand/{arg}`)",
                     shown(f"BM_Decode_OnDemand/{arg}"),
                     f"decode / On-Demand = {decode / ceiling:.2f}x; target <= 1.3x: {verdict(decode / ceiling <= 1.3)}"))
        peer = "validate_json" + ("" if arg == 0 else "_permuted")
        target = ""
        if peer in py:
            ratio = py[peer]["median_ns"] / decode
            target = f"pydantic / decode = {ratio:.1f}x; target >= 5x: {verdict(ratio >= 5)}"
        rows.append((f"pydantic-core `validate_json`, {order}", py_shown(peer), target))
    decode = ns("BM_Decode_Generated/0")
    for reply, label in ((0, "OpenAI chat message"), (1, "Anthropic tool_result"), (2, "MCP CallToolResult")):
        name = f"BM_Dispatch/reply:{reply}"
        ratio = ns(name) / decode
        rows.append((f"dispatch to an {label} (`{name}`)", shown(name),
                     f"dispatch / decode = {ratio:.2f}x; target <= 2x: {verdict(ratio <= 2)}"))
    target = ""
    if "dispatch_openai" in py:
        ratio = py["dispatch_openai"]["median_ns"] / ns("BM_Dispatch/reply:0")
        target = f"pydantic / ptc = {ratio:.1f}x; target >= 3x: {verdict(ratio >= 3)}"
    rows.append(("pydantic: validate_json, call, dump, OpenAI message", py_shown("dispatch_openai"), target))
    enc = runs["BM_Encode_Generated"]["bytes_per_second"]
    rate = median(enc) / 1e6
    rows.append(("encode the 1 MB result list (`BM_Encode_Generated`)",
                 f"{rate:,.0f} MB/s ({min(enc) / 1e6:,.0f}..{max(enc) / 1e6:,.0f})",
                 f"target >= 1000 MB/s: {verdict(rate >= 1000)}"))
    dump = runs["BM_Encode_NlohmannDump"]["bytes_per_second"]
    rows.append(("nlohmann `to_json` + `dump` of that list", f"{median(dump) / 1e6:,.0f} MB/s", ""))
    parse = runs["BM_Parse_SimdjsonDom_1MB"]["bytes_per_second"]
    rows.append(("simdjson DOM parse of that megabyte", f"{median(parse) / 1e6:,.0f} MB/s", ""))

    print(f"pydantic {version or 'missing'}; medians of {REPETITIONS} repetitions, (min..max)\n")
    print("| what | measured | ratio and target |\n|---|---|---|")
    for row in rows:
        print("| " + " | ".join(row) + " |")


if __name__ == "__main__":
    main()
