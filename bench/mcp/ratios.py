#!/usr/bin/env python3
"""The summary of bench/mcp/run.sh: reads mcp_load's rows and prints, for each load, the servers' CPU
per call and TypeScript's divided by ptc's (issue 31's target: at least 10x), beside throughput and
latency. Rows pair up by tool, transport, clients, calls in flight and the form of the answers that
mcp_load saw (sse or json), so a server that answers in another form than asked has no peer.
    bench/mcp/ratios.py ROWS_FILE
"""
import sys

TARGET = 10.0


def parse(line):
    words = line.split()
    fields = dict(word.split("=", 1) for word in words[2:] if "=" in word)
    fields["label"], fields["transport"] = words[0], words[1]
    return fields


def load_key(row):
    if row["transport"] == "stdio":
        return f"{row['tool']} stdio, {row['in_flight']} in flight"
    return f"{row['tool']} HTTP, {row['clients']} clients"


def num(row, field):
    return float(row[field]) if row and field in row else None


def cell(value, unit=""):
    return "n/a" if value is None else f"{value:,.0f}{unit}" if value >= 100 else f"{value:,.1f}{unit}"


def latency(row):
    return "n/a" if not row else f"{cell(num(row, 'p50_us'))} / {cell(num(row, 'p99_us'))}"


def summarize(rows):
    # {(load, form): {label: row}}, in the order the run measured them; the generator answers JSON over
    # HTTP whatever the servers do, so it belongs to the load, not the form.
    pairs, generators = {}, {}
    for row in rows:
        load = load_key(row)
        if row["label"] == "generator":
            generators[load] = row
            continue
        form = row.get("responses", "-")
        servers = pairs.setdefault((load, form), {})
        if row["label"] in servers:
            print(f"# warning: two {row['label']} rows of {load} answered {form}: one mode answered in another form"
                  " than asked; the last row counts")
        servers[row["label"]] = row
    return pairs, generators


def ratio_cell(ts_cpu, ptc_cpu, ptc_missing_reason):
    if ptc_cpu is None:
        return ptc_missing_reason
    if ts_cpu is None:
        return "n/a"
    ratio = ts_cpu / ptc_cpu
    return f"{ratio:.2f}x {'met' if ratio >= TARGET else 'not met'}"


def main(path):
    with open(path) as f:
        rows = [parse(line) for line in f if line.strip() and not line.startswith("#")]
    pairs, generators = summarize(rows)
    before = any("ptc-before" in servers for servers in pairs.values())
    print(f"# Server CPU per tools/call, TypeScript / ptc (target: >= {TARGET:.0f}x), with throughput and latency")
    header = ["load", "answers", "ptc CPU us/call", "TypeScript CPU us/call", "TypeScript / ptc",
              "ptc calls/s", "TypeScript calls/s", "ptc p50 / p99 us", "TypeScript p50 / p99 us",
              "generator alone calls/s (its CPU us/call)"]
    if before:
        header += ["ptc-before CPU us/call", "before / after"]
    print("| " + " | ".join(header) + " |")
    print("|" + "---|" * len(header))
    for (load, form), servers in pairs.items():
        ptc, ts, old = servers.get("ptc"), servers.get("typescript"), servers.get("ptc-before")
        if ptc is None and ts is None:
            continue  # ptc-many: no peer
        generator = generators.get(load)
        missing = "ptc has no JSON-response mode" if form == "json" else "no ptc row"
        ptc_cpu, ts_cpu = num(ptc, "server_cpu_us_per_call"), num(ts, "server_cpu_us_per_call")
        errors = sum(int(r.get("errors", 0)) for r in servers.values())
        cells = [load, form if errors == 0 else f"{form} ({errors} ERRORS)", cell(ptc_cpu), cell(ts_cpu),
                 ratio_cell(ts_cpu, ptc_cpu, missing), cell(num(ptc, "calls/s")), cell(num(ts, "calls/s")),
                 latency(ptc), latency(ts),
                 f"{cell(num(generator, 'calls/s'))} ({cell(num(generator, 'server_cpu_us_per_call'))})"]
        if before:
            old_cpu = num(old, "server_cpu_us_per_call")
            cells += [cell(old_cpu), "n/a" if old_cpu is None or ptc_cpu is None else f"{old_cpu / ptc_cpu:.2f}x"]
        print("| " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main(sys.argv[1])
