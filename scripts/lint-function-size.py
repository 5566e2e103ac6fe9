#!/usr/bin/env python3
"""The function-size rule of .clang-tidy: readability-function-size at the threshold it sets, an error.

Runs clang-tidy-19 with that one check over the translation units of ptc's own code (runtime/,
generator/, examples/, bench/; not tests, fuzzers or generated files) in a build's
compile_commands.json, two at a time, and exits 1 listing each function over the limit. ctest runs it
in the g++ build as lint.function_size.

A function lies within one file, so a file no longer than the threshold cannot hold one over it. A
source that short is checked only when it includes one of the project's longer headers that no other
checked source includes (ninja's record of each object's headers says which); parsing is nearly all
of clang-tidy's time, and this leaves out a third of it.

    scripts/lint-function-size.py <build dir> [--clang-tidy clang-tidy-19] [--ninja ninja] [--jobs 2]
"""

import argparse
import concurrent.futures
import functools
import json
import os
import re
import shlex
import shutil
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OURS = ("runtime", "generator", "examples", "bench")
FINDING = re.compile(r"^(?P<file>[^:\n]+):(?P<line>\d+):\d+: (?:warning|error): function '(?P<name>[^']*)' "
                     r"exceeds recommended size/complexity thresholds")
SIZE = re.compile(r": note: (\d+ lines including whitespace and comments \(threshold \d+\))")


def ours(path):
    return os.path.relpath(path, ROOT).split(os.sep)[0] in OURS


def line_threshold():
    config = open(os.path.join(ROOT, ".clang-tidy")).read()
    found = re.search(r"key: readability-function-size\.LineThreshold\s+value: '(\d+)'", config)
    if not found:
        sys.exit("lint: .clang-tidy sets no readability-function-size.LineThreshold")
    return int(found.group(1))


@functools.cache
def line_count(path):
    with open(path, "rb") as f:
        return sum(1 for _ in f)


def translation_units(build):
    """Each source of ours, with the objects it is compiled to (bench compiles some twice)."""
    units = {}
    for entry in json.load(open(os.path.join(build, "compile_commands.json"))):
        source = os.path.normpath(os.path.join(entry["directory"], entry["file"]))
        if not (ours(source) and source.endswith(".cpp")):
            continue
        args = entry["arguments"] if "arguments" in entry else shlex.split(entry["command"])
        objects = [os.path.normpath(os.path.join(entry["directory"], args[i + 1]))
                   for i, arg in enumerate(args[:-1]) if arg == "-o"]
        units.setdefault(source, []).extend(objects)
    return units


def headers_read(build, ninja):
    """The files each object was compiled from, as ninja last recorded them (up-to-date records only)."""
    if not ninja or not os.path.exists(os.path.join(build, ".ninja_deps")):
        return {}
    listing = subprocess.run([ninja, "-C", build, "-t", "deps"], capture_output=True, text=True).stdout
    deps, current = {}, None
    for line in listing.splitlines():
        if line and not line[0].isspace():
            target, _, status = line.partition(": #deps")
            current = os.path.normpath(os.path.join(build, target)) if status.endswith("(VALID)") else None
            if current:
                deps[current] = set()
        elif line.strip() and current:
            deps[current].add(os.path.normpath(os.path.join(build, line.strip())))
    return deps


def select(units, deps, threshold):
    """The sources to check: every long one, and short ones for long headers the others do not include."""
    def long(path):
        return line_count(path) > threshold

    chosen, covered, short = [], set(), []
    for source, objects in sorted(units.items()):
        known = bool(objects) and all(o in deps for o in objects)
        headers = {h for o in objects if o in deps for h in deps[o] if ours(h) and h != source and long(h)}
        if long(source) or not known:
            chosen.append(source)
            covered |= headers
        else:
            short.append((source, headers))
    for source, headers in short:
        if headers - covered:
            chosen.append(source)
            covered |= headers
    return sorted(chosen)


def check(tidy, build, source):
    # -w: compiler warnings are not this check's business, and the build's -Werror would make clang fail
    # on a deprecation inside libstdc++. -fexceptions: the generator is built with LLVM's
    # -fno-exceptions, under which clang, unlike g++, refuses the `throw` in ptc's Result template.
    command = [tidy, "-p", build, "--quiet", "--checks=-*,readability-function-size", "--extra-arg=-w",
               "--extra-arg=-fexceptions", source]
    done = subprocess.run(command, capture_output=True, text=True)
    return source, done.returncode, done.stdout + done.stderr


def findings(output, build):
    found, pending = [], None
    for line in output.splitlines():
        match = FINDING.match(line)
        if match:
            pending = match
            continue
        size = SIZE.search(line)
        if size and pending:
            path = os.path.join(build, pending["file"])  # as given: absolute, or relative to the build
            if ours(path):
                where = os.path.relpath(path, ROOT)
                found.append(f"{where}:{pending['line']}: {pending['name']} has {size.group(1)}")
            pending = None
    return found


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("build")
    parser.add_argument("--clang-tidy", default="clang-tidy-19")
    parser.add_argument("--ninja", default=shutil.which("ninja"))
    parser.add_argument("--jobs", type=int, default=2)
    options = parser.parse_args()
    build = os.path.abspath(options.build)

    if not shutil.which(options.clang_tidy):
        sys.exit(f"lint: {options.clang_tidy} not found; scripts/setup.sh installs clang-tidy-19")
    if not os.path.exists(os.path.join(build, "compile_commands.json")):
        sys.exit(f"lint: no compile_commands.json in {build}")
    units = translation_units(build)
    if not units:
        sys.exit(f"lint: no sources of {', '.join(OURS)} in {build}/compile_commands.json")
    sources = select(units, headers_read(build, options.ninja), line_threshold())

    failed, over = False, set()
    with concurrent.futures.ThreadPoolExecutor(options.jobs) as pool:
        for source, returncode, output in pool.map(lambda s: check(options.clang_tidy, build, s), sources):
            found = findings(output, build)
            over.update(found)
            # A failure without a finding is clang-tidy's own (a file it cannot parse): show what it said.
            if returncode != 0 and not found:
                where = os.path.relpath(source, ROOT)
                print(f"lint: {options.clang_tidy} failed on {where}:\n{output}", file=sys.stderr)
                failed = True
    if over:
        print("lint: functions over the limit of .clang-tidy's readability-function-size "
              "(split them along their seams):")
        for line in sorted(over):
            print("  " + line)
    if failed or over:
        return 1
    print(f"lint: no function over the limit ({len(sources)} of {len(units)} sources checked; the others are "
          "too short to hold one, and their headers are checked in the sources that include them)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
