#!/usr/bin/env python3
"""How long ptc-gen --watch takes from a save of the quickstart's header to the end of the run it
starts: the time an editor's background task waits before the generated files and diagnostics are
current.

    bench/watch/save_to_regen.py PTC_GEN [SAVES]

Starts `PTC_GEN --watch` on a copy of examples/quickstart/include (the flags as the quickstart's
build gives them), waits for the first run, then saves the header SAVES times (default 20), each
time with another doc comment on a tool, written to a new file and renamed into place as editors
do, and measures from the rename to the `ptc-gen: end` line. Prints the median, the fastest and the
slowest, and the end line's own figure (the run alone, without the wait for the burst to settle).
"""
import os
import re
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    ptc_gen = sys.argv[1]
    saves = int(sys.argv[2]) if len(sys.argv) > 2 else 20
    work = tempfile.mkdtemp(prefix="ptc_watch_bench_")
    try:
        shutil.copytree(os.path.join(ROOT, "examples/quickstart/include"), os.path.join(work, "include"))
        header = os.path.join(work, "include/tracker/tracker.hpp")
        flags = ["-std=c++20", "-I" + os.path.join(work, "include")]
        flags += ["-I" + os.path.join(ROOT, "runtime", c, "include") for c in ("core", "tools", "codec")]
        proc = subprocess.Popen([ptc_gen, "--watch", "--out-dir", os.path.join(work, "out"), header, "--"] + flags,
                                stderr=subprocess.PIPE, text=True, bufsize=1)

        def until_end():
            for line in proc.stderr:
                if line.startswith("ptc-gen: end"):
                    return line.strip()
            sys.exit("ptc-gen --watch stopped")

        first = until_end()
        if not first.startswith("ptc-gen: end: ok"):
            sys.exit("the first run failed: " + first)
        with open(header) as f:
            original = f.read()
        marker = "/// Creates an issue"
        if marker not in original:
            sys.exit("the quickstart header changed: no '" + marker + "'")
        waits, runs = [], []
        for i in range(saves):
            text = original.replace(marker, "/// Creates an issue (save %d)" % i, 1)
            with open(header + ".tmp", "w") as f:
                f.write(text)
            start = time.monotonic()
            os.rename(header + ".tmp", header)
            end = until_end()
            waits.append((time.monotonic() - start) * 1000)
            m = re.search(r"in (\d+) ms", end)
            if not end.startswith("ptc-gen: end: ok") or not m:
                sys.exit("a run failed: " + end)
            runs.append(int(m.group(1)))
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=10)
        # The watch parses through a precompiled preamble: what it wrote must be what a plain run writes.
        plain = os.path.join(work, "plain")
        subprocess.run([ptc_gen, "--out-dir", plain, header, "--"] + flags, check=True, stderr=subprocess.DEVNULL)
        for name in sorted(os.listdir(plain)):
            with open(os.path.join(plain, name)) as a, open(os.path.join(work, "out", name)) as b:
                if a.read() != b.read():
                    sys.exit("the watch wrote another " + name + " than a plain run")
        print("| save to end of regeneration (quickstart, %d saves) | median %.0f ms | fastest %.0f ms | slowest %.0f ms |"
              % (saves, statistics.median(waits), min(waits), max(waits)))
        print("| the run alone (ptc-gen's end line) | median %.0f ms | fastest %d ms | slowest %d ms |"
              % (statistics.median(runs), min(runs), max(runs)))
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
