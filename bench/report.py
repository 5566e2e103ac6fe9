#!/usr/bin/env python3
"""Runs the decode, dispatch and encode contestants in one script run, prints the ratios the
performance targets are set on as a markdown table, saves what it measured as JSON, and draws the
comparison with each peer as an SVG chart (docs/performance.md).

    bench/report.py BUILD_DIR [PYTHON] [--chart FILE.svg] [--no-chart]
    bench/report.py --redraw RESULTS.json [--chart FILE.svg] [--no-table]

- ptc_bench (one process): the generated decoder, the hand-written simdjson On-Demand decoder (the
  practical ceiling), nlohmann, the runtime validator, full dispatch to each provider's reply, and the
  encoder, each repeated 5 times, interleaved at random; the table shows medians with the spread
  (min..max of the repetitions).
- bench/python/pydantic_peer.py under PYTHON (default: python3): pydantic-core on the same bytes. When
  pydantic is missing, its rows say so and the rest are still printed.

The measured results go to FILE.json beside the chart (default: BUILD_DIR/bench/performance.svg and
.json). --redraw reads such a file and prints the table and draws the chart again without measuring,
so a chart can always be rebuilt from its data; the same data gives the same SVG bytes with the same
matplotlib.

The chart needs matplotlib (Debian: python3-matplotlib, which scripts/setup.sh installs for
/usr/bin/python3). When the python running this script lacks it (a pyenv python that has pydantic,
say), the chart is drawn by running this script again under the first python3 that has it:
$PTC_CHART_PYTHON, then /usr/bin/python3.
"""
import argparse
import datetime
import importlib.util
import json
import os
import platform
import subprocess
import sys

REPETITIONS = 5
RESULTS_FORMAT = 1
HERE = os.path.dirname(os.path.abspath(__file__))


# ---------------------------------------------------------------------------------------------------
# Measuring


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
    peer = os.path.join(HERE, "python", "pydantic_peer.py")
    done = subprocess.run([python, peer], stdout=subprocess.PIPE, text=True)
    if done.returncode != 0:
        return None, {}
    report = json.loads(done.stdout)
    return report["pydantic"], {r["name"]: r for r in report["results"]}


def host():
    model = None
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            for line in f:
                if line.startswith("model name"):
                    model = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    return {"system": platform.system(), "machine": platform.machine(), "cpu": model, "cpus": os.cpu_count()}


def commit():
    try:
        done = subprocess.run(["git", "-C", HERE, "rev-parse", "--short", "HEAD"], stdout=subprocess.PIPE,
                              stderr=subprocess.DEVNULL, text=True)
    except OSError:
        return None
    if done.returncode != 0 or not done.stdout.strip():
        return None
    return done.stdout.strip()


def measure(build, python):
    runs = run_ptc_bench(build)
    version, py = run_pydantic(python)
    return {
        "format": RESULTS_FORMAT,
        "date": datetime.date.today().isoformat(),
        "commit": commit(),
        "host": host(),
        "repetitions": REPETITIONS,
        "ptc_bench": runs,
        "pydantic": {"version": version, "python": python, "results": py},
    }


# ---------------------------------------------------------------------------------------------------
# Reading results (measured now or loaded from JSON)


def median(values):
    s = sorted(values)
    return s[len(s) // 2]


class Results:
    def __init__(self, data):
        if data.get("format") != RESULTS_FORMAT:
            sys.exit(f"report.py: results of format {data.get('format')!r}; this script reads format {RESULTS_FORMAT}")
        self.data = data
        self.runs = data["ptc_bench"]
        self.py = data["pydantic"]["results"]
        self.python = data["pydantic"]["python"]
        self.version = data["pydantic"]["version"]

    def ns(self, name):
        """median, min, max of a ptc_bench case in nanoseconds"""
        v = self.runs[name]["ns"]
        return median(v), min(v), max(v)

    def rate(self, name):
        """median, min, max of a ptc_bench case in MB/s"""
        v = [b / 1e6 for b in self.runs[name]["bytes_per_second"]]
        return median(v), min(v), max(v)

    def py_ns(self, name):
        """median, min, max of a pydantic case in nanoseconds, or None when it was not measured"""
        if name not in self.py:
            return None
        r = self.py[name]
        return r["median_ns"], r["min_ns"], r["max_ns"]


def verdict(ok):
    return "met" if ok else "**not met**"


def shown(m):
    return f"{m[0]:,.0f} ns ({m[1]:,.0f}..{m[2]:,.0f})"


def table_rows(r):
    def py_shown(name):
        m = r.py_ns(name)
        return shown(m) if m else "not measured: pydantic is not installed for " + r.python

    rows = []
    for order, arg in (("in order", 0), ("keys reversed", 1)):
        decode, ceiling = r.ns(f"BM_Decode_Generated/{arg}")[0], r.ns(f"BM_Decode_OnDemand/{arg}")[0]
        rows.append((f"decode, {order} (`BM_Decode_Generated/{arg}`)", shown(r.ns(f"BM_Decode_Generated/{arg}")), ""))
        rows.append((f"hand-written simdjson On-Demand, {order} (`BM_Decode_OnDemand/{arg}`)",
                     shown(r.ns(f"BM_Decode_OnDemand/{arg}")),
                     f"decode / On-Demand = {decode / ceiling:.2f}x; target <= 1.3x: {verdict(decode / ceiling <= 1.3)}"))
        peer = "validate_json" + ("" if arg == 0 else "_permuted")
        target = ""
        if r.py_ns(peer):
            ratio = r.py_ns(peer)[0] / decode
            target = f"pydantic / decode = {ratio:.1f}x; target >= 5x: {verdict(ratio >= 5)}"
        rows.append((f"pydantic-core `validate_json`, {order}", py_shown(peer), target))
    decode = r.ns("BM_Decode_Generated/0")[0]
    for reply, label in ((0, "OpenAI chat message"), (1, "Anthropic tool_result"), (2, "MCP CallToolResult")):
        name = f"BM_Dispatch/reply:{reply}"
        ratio = r.ns(name)[0] / decode
        rows.append((f"dispatch to an {label} (`{name}`)", shown(r.ns(name)),
                     f"dispatch / decode = {ratio:.2f}x; target <= 2x: {verdict(ratio <= 2)}"))
    target = ""
    if r.py_ns("dispatch_openai"):
        ratio = r.py_ns("dispatch_openai")[0] / r.ns("BM_Dispatch/reply:0")[0]
        target = f"pydantic / ptc = {ratio:.1f}x; target >= 3x: {verdict(ratio >= 3)}"
    rows.append(("pydantic: validate_json, call, dump, OpenAI message", py_shown("dispatch_openai"), target))
    enc = r.rate("BM_Encode_Generated")
    rows.append(("encode the 1 MB result list (`BM_Encode_Generated`)",
                 f"{enc[0]:,.0f} MB/s ({enc[1]:,.0f}..{enc[2]:,.0f})",
                 f"target >= 1000 MB/s: {verdict(enc[0] >= 1000)}"))
    rows.append(("nlohmann `to_json` + `dump` of that list", f"{r.rate('BM_Encode_NlohmannDump')[0]:,.0f} MB/s", ""))
    rows.append(("simdjson DOM parse of that megabyte", f"{r.rate('BM_Parse_SimdjsonDom_1MB')[0]:,.0f} MB/s", ""))
    return rows


def print_table(r):
    print(f"{r.data['date']}; pydantic {r.version or 'missing'}; medians of {r.data['repetitions']} repetitions, "
          "(min..max)\n")
    print("| what | measured | ratio and target |\n|---|---|---|")
    for row in table_rows(r):
        print("| " + " | ".join(row) + " |")


# ---------------------------------------------------------------------------------------------------
# The chart


def draw(r, path):
    """Three panels: decode against On-Demand and pydantic, dispatch against pydantic, encode against
    nlohmann (and simdjson's DOM parse as the ceiling). Bars are medians, whiskers min..max."""
    import matplotlib

    matplotlib.use("svg")
    import matplotlib.pyplot as plt

    # Same data, same bytes: fixed ids in the SVG, text kept as text (no glyph paths), no date.
    matplotlib.rcParams["svg.hashsalt"] = "ptc-bench-report"
    matplotlib.rcParams["svg.fonttype"] = "none"
    matplotlib.rcParams["font.family"] = "DejaVu Sans"
    matplotlib.rcParams["font.size"] = 9

    ptc_color, ceiling_color, peer_color = "#1f6fb4", "#9aa5b1", "#e07b39"

    orders = ("keys in order", "keys reversed")
    decode = [r.ns("BM_Decode_Generated/0"), r.ns("BM_Decode_Generated/1")]
    ondemand = [r.ns("BM_Decode_OnDemand/0"), r.ns("BM_Decode_OnDemand/1")]
    pyd = [r.py_ns("validate_json"), r.py_ns("validate_json_permuted")]
    decode_bars = []
    for i, order in enumerate(orders):
        decode_bars.append((f"ptc generated decoder, {order}", decode[i], ptc_color))
        decode_bars.append((f"hand-written simdjson On-Demand, {order}", ondemand[i], ceiling_color))
        if pyd[i]:
            decode_bars.append((f"pydantic-core validate_json, {order}", pyd[i], peer_color))
    decode_note = "ptc / On-Demand: " + ", ".join(
        f"{decode[i][0] / ondemand[i][0]:.2f}x {order}" for i, order in enumerate(orders)) + " (target <= 1.3x)"
    if all(pyd):
        decode_note += "\npydantic / ptc: " + ", ".join(
            f"{pyd[i][0] / decode[i][0]:.1f}x {order}" for i, order in enumerate(orders)) + " (target >= 5x)"

    dispatch_bars = []
    ratios = []
    for reply, label in ((0, "OpenAI chat message"), (1, "Anthropic tool_result"), (2, "MCP CallToolResult")):
        m = r.ns(f"BM_Dispatch/reply:{reply}")
        dispatch_bars.append((f"ptc dispatch to an {label}", m, ptc_color))
        ratios.append(f"{m[0] / decode[0][0]:.2f}x")
    dispatch_note = "dispatch / decode: " + ", ".join(ratios) + " (target <= 2x)"
    if r.py_ns("dispatch_openai"):
        m = r.py_ns("dispatch_openai")
        dispatch_bars.append(("pydantic: validate, call, dump, OpenAI message", m, peer_color))
        dispatch_note += f"\npydantic / ptc (OpenAI reply): {m[0] / r.ns('BM_Dispatch/reply:0')[0]:.1f}x (target >= 3x)"

    encode_bars = [
        ("ptc generated encoder", r.rate("BM_Encode_Generated"), ptc_color),
        ("nlohmann to_json + dump", r.rate("BM_Encode_NlohmannDump"), peer_color),
        ("simdjson DOM parse (reading, for scale)", r.rate("BM_Parse_SimdjsonDom_1MB"), ceiling_color),
    ]
    enc = r.rate("BM_Encode_Generated")[0]
    encode_note = (f"ptc: {enc:,.0f} MB/s (target >= 1,000 MB/s); "
                   f"{enc / r.rate('BM_Encode_NlohmannDump')[0]:.1f}x nlohmann")

    panels = [
        ("Decode a 298-byte search_orders call into C++ arguments: ns, lower is better", decode_note, decode_bars, "ns"),
        ("Dispatch, argument text to the provider's reply: ns, lower is better", dispatch_note, dispatch_bars, "ns"),
        ("Encode a 1.17 MB result list: MB/s, higher is better", encode_note, encode_bars, "MB/s"),
    ]
    heights = [len(bars) + 1.2 for _, _, bars, _ in panels]
    fig, axes = plt.subplots(len(panels), 1, figsize=(9, 0.4 * sum(heights) + 1.2),
                             gridspec_kw={"height_ratios": heights})
    for ax, (title, note, bars, unit) in zip(axes, panels):
        labels = [b[0] for b in bars]
        med = [b[1][0] for b in bars]
        lo = [b[1][0] - b[1][1] for b in bars]
        hi = [b[1][2] - b[1][0] for b in bars]
        ys = list(range(len(bars)))[::-1]
        ax.barh(ys, med, xerr=[lo, hi], color=[b[2] for b in bars], height=0.7,
                error_kw={"elinewidth": 0.8, "capsize": 2, "ecolor": "#333333"})
        ax.set_yticks(ys)
        ax.set_yticklabels(labels)
        ax.set_title(f"{title}\n{note}", loc="left", fontsize=8.5, linespacing=1.4)
        right = max(b[1][2] for b in bars)
        ax.set_xlim(0, right * 1.18)
        for y, b in zip(ys, bars):
            ax.text(b[1][2] + right * 0.015, y, f"{b[1][0]:,.0f} {unit}", va="center", fontsize=8)
        ax.spines["top"].set_visible(False)
        ax.spines["right"].set_visible(False)
        ax.tick_params(axis="y", length=0)
    h = r.data["host"]
    cpu = f"{h.get('cpus')} cores, {h.get('cpu') or h.get('machine')}"
    peers = f"pydantic {r.version}" if r.version else "pydantic not measured"
    fig.text(0.01, 0.005,
             f"bench/report.py, measured {r.data['date']} ({cpu}); medians of {r.data['repetitions']} repetitions, "
             f"whiskers min..max; {peers}",
             fontsize=7, color="#555555")
    fig.tight_layout(rect=(0, 0.02, 1, 1))
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    fig.savefig(path, format="svg", metadata={"Date": None, "Creator": "bench/report.py"})
    plt.close(fig)


def has_matplotlib(python):
    return subprocess.run([python, "-c", "import matplotlib"], stdout=subprocess.DEVNULL,
                          stderr=subprocess.DEVNULL).returncode == 0


def chart(r, results_path, svg_path):
    if importlib.util.find_spec("matplotlib") is None:
        for python in (os.environ.get("PTC_CHART_PYTHON"), "/usr/bin/python3"):
            if python and os.path.realpath(python) != os.path.realpath(sys.executable) and has_matplotlib(python):
                subprocess.run([python, os.path.abspath(__file__), "--redraw", results_path, "--chart", svg_path,
                                "--no-table"], check=True)
                return
        print(f"report.py: no chart: matplotlib is missing (Debian: apt-get install python3-matplotlib, or run "
              f"scripts/setup.sh); draw it later with /usr/bin/python3 bench/report.py --redraw {results_path}",
              file=sys.stderr)
        return
    draw(r, svg_path)
    print(f"report.py: chart {svg_path}", file=sys.stderr)


# ---------------------------------------------------------------------------------------------------


def main():
    parser = argparse.ArgumentParser(
        description="Measure decode, dispatch and encode against their peers; print the ratios, save them "
                    "as JSON and draw them as an SVG chart.")
    parser.add_argument("build", nargs="?", help="a build directory configured with -DPTC_BUILD_BENCHMARKS=ON")
    parser.add_argument("python", nargs="?", default="python3", help="the python that runs the pydantic peer")
    parser.add_argument("--chart", metavar="FILE.svg",
                        help="where the chart goes; the results go beside it as FILE.json "
                             "(default: BUILD/bench/performance.svg, or beside the --redraw file)")
    parser.add_argument("--no-chart", action="store_true", help="do not draw the chart")
    parser.add_argument("--redraw", metavar="RESULTS.json", help="do not measure: read these results")
    parser.add_argument("--no-table", action="store_true", help="do not print the table")
    args = parser.parse_args()

    if args.redraw:
        if args.build:
            parser.error("--redraw reads saved results; it takes no build directory")
        with open(args.redraw, encoding="utf-8") as f:
            data = json.load(f)
        results_path = args.redraw
        svg_path = args.chart or os.path.splitext(args.redraw)[0] + ".svg"
    else:
        if not args.build:
            parser.error("give a build directory, or --redraw RESULTS.json")
        svg_path = args.chart or os.path.join(args.build, "bench", "performance.svg")
        results_path = os.path.splitext(svg_path)[0] + ".json"
        data = measure(args.build, args.python)
        os.makedirs(os.path.dirname(os.path.abspath(results_path)), exist_ok=True)
        with open(results_path, "w", encoding="utf-8") as f:
            json.dump(data, f, indent=1, sort_keys=True)
            f.write("\n")
        print(f"report.py: results {results_path}", file=sys.stderr)

    r = Results(data)
    if not args.no_table:
        print_table(r)
    if not args.no_chart:
        chart(r, results_path, svg_path)


if __name__ == "__main__":
    main()
