#!/usr/bin/env python3
"""Prints every part's targets from one package-benchmark run exported with `--format jmh`.

The targets live in Scripts/targets/*.json, one file per part of the library (read in name
order), each:

    {"title": "Issue 5: the event bus",
     "calls_per_iteration": {"BENCHMARK NAME": 1000},
     "rows": [[NUMBER, WHAT, SUBJECT BENCHMARK, REFERENCE BENCHMARK or null, KIND, THRESHOLD]]}

KIND is one of
    "le"        SUBJECT / REFERENCE <= THRESHOLD             (wall-clock p50 per call)
    "ge"        REFERENCE / SUBJECT >= THRESHOLD             (how many times faster)
    "tput"      throughput(SUBJECT) / throughput(REFERENCE) >= THRESHOLD
    "malloc"    mallocs per call of SUBJECT = 0
    "bytes"     heap bytes per object reported by SUBJECT (metric "Bytes per object")
                <= THRESHOLD; with a REFERENCE, <= the REFERENCE's bytes × THRESHOLD
    "info", "info-tput", "info-bytes"   shown for context, not a target (THRESHOLD null)

A benchmark makes a million calls per measured iteration (scalingFactor .mega) unless its
targets file says otherwise in "calls_per_iteration"; the JMH export keeps the raw
per-iteration values (times in microseconds, counts as they are), so dividing by the calls
per iteration gives the per-call figure without the rounding of the text output.

usage: report.py RESULTS.jmh.json [--strict]
"""

import glob
import json
import os
import sys

DEFAULT_CALLS_PER_ITERATION = 1_000_000
WALL = "Time (wall clock)"
CPU = "Time (total CPU)"
MALLOC = "Malloc (total)"
BYTES = "Bytes per object"

# A call "does not allocate" when the median iteration averages below this many mallocs per
# call: a per-call allocation shows as 1.0 or more, the harness's own as about 0.00002.
ZERO_MALLOCS = 0.005


def load_targets():
    """Every targets file, in name order: (title, rows, calls per iteration)."""
    here = os.path.dirname(os.path.abspath(__file__))
    sections = []
    for path in sorted(glob.glob(os.path.join(here, "targets", "*.json"))):
        with open(path) as file:
            spec = json.load(file)
        sections.append((spec["title"], spec["rows"], spec.get("calls_per_iteration", {})))
    return sections


def load(path, calls_per_iteration):
    with open(path) as file:
        elements = json.load(file)
    results = {}
    for element in elements:
        name = element["benchmark"].split(".", 3)[-1].replace("_", " ")
        calls = calls_per_iteration.get(name, DEFAULT_CALLS_PER_ITERATION)
        metrics = dict(element["secondaryMetrics"])
        p50 = {key: value["scorePercentiles"]["50.0"] for key, value in metrics.items()}
        results[name] = {
            "wall": p50[WALL] * 1_000 / calls,  # µs per iteration → ns per call
            "cpu": p50[CPU] * 1_000 / calls if CPU in p50 else float("nan"),
            "mallocs": p50[MALLOC] / calls if MALLOC in p50 else float("nan"),
            "bytes": p50.get(BYTES, float("nan")),
            "samples": len(element["primaryMetric"]["rawData"][0]),
        }
    return results


def part_name(title, subject):
    """The part a row belongs to, for the Markdown table."""
    lowered = (title + " " + subject).lower()
    for key, name in (("baseline closure recursion", "stack floor"),
                      ("core", "core"), ("bus", "event bus"), ("tree", "operation tree"),
                      ("plumb", "plumbing"), ("state", "observable state")):
        if key in subject.lower():
            return name
    for key, name in (("core", "core"), ("event bus", "event bus"), ("tree", "operation tree"),
                      ("plumbing", "plumbing"), ("observable state", "observable state")):
        if key in lowered:
            return name
    return "other"


def duration(ns):
    return f"{ns / 1000:.2f} µs" if ns >= 10_000 else f"{ns:.1f} ns"


def main():
    args = [arg for arg in sys.argv[1:] if not arg.startswith("--")]
    strict = "--strict" in sys.argv
    # `--markdown`: also print the table of Docs/Performance.md ("Latest figures").
    markdown = "--markdown" in sys.argv
    table = []
    sections = load_targets()
    calls_per_iteration = {}
    for _, _, calls in sections:
        calls_per_iteration.update(calls)
    results = load(args[0], calls_per_iteration)
    get = results.get

    header = f"{'#':<2} {'target':<44} {'measured':>30} {'ratio':>9} {'threshold':>10}  result"
    print(header)
    print("-" * len(header))
    passed = failed = 0
    for title, rows, _ in sections:
        if not rows:
            continue
        print(title)
        if not any(get(row[2]) for row in rows):
            # A filtered run (`./run -- --filter ...`) that left this part out.
            print("   not run")
            continue
        for number, what, subject, reference, kind, threshold in rows:
            a = get(subject)
            b = get(reference) if reference else None
            if a is None or (reference and b is None):
                print(f"{number:<2} {what:<44} {'not measured':>30} {'':>9} {'':>10}  -")
                if kind not in ("info", "info-tput", "info-bytes"):
                    failed += 1
                continue
            if kind in ("bytes", "info-bytes"):
                measured = f"{a['bytes']:.0f} B" + (f" vs {b['bytes']:.0f} B" if b else "")
                ratio_text = f"{a['bytes'] / b['bytes']:.2f}×" if b else ""
                if kind == "info-bytes":
                    limit, ok = "", None
                else:
                    limit_bytes = threshold * b["bytes"] if b else threshold
                    limit = f"≤ {limit_bytes:.0f} B"
                    ok = a["bytes"] <= limit_bytes
            elif kind == "malloc":
                measured = f"{a['mallocs']:.3f} mallocs/call"
                ratio_text = ""
                limit = "= 0"
                ok = a["mallocs"] < ZERO_MALLOCS
            else:
                measured = f"{duration(a['wall'])} vs {duration(b['wall'])}"
                if kind in ("le", "info"):
                    ratio = a["wall"] / b["wall"]
                    limit = f"≤ {threshold:.1f}×" if threshold else ""
                    ok = ratio <= threshold if threshold else None
                elif kind == "ge":
                    ratio = b["wall"] / a["wall"]
                    limit = f"≥ {threshold:.1f}×"
                    ok = ratio >= threshold
                else:  # throughput: the same number of calls, so the inverse ratio of times
                    ratio = b["wall"] / a["wall"]
                    measured = f"{1e3 / a['wall']:.1f} vs {1e3 / b['wall']:.1f} M calls/s"
                    limit = f"≥ {threshold:.1f}×" if threshold else ""
                    ok = ratio >= threshold if threshold else None
                ratio_text = f"{ratio:.2f}×"
            result = "" if ok is None else ("PASS" if ok else "FAIL")
            if ok is True:
                passed += 1
            elif ok is False:
                failed += 1
            print(f"{number:<2} {what:<44} {measured:>30} {ratio_text:>9} {limit:>10}  {result}")
            label = f"{number}. {what}" if number not in ("i", "-") else f"info: {what}"
            table.append((part_name(title, subject), label, measured, ratio_text, limit, result))

    one, two = get("T7 Baseline 1 thread, 3 closures"), get("T7 Baseline 2 threads, 3 closures")
    if one and two and one["wall"] / two["wall"] < 1.8:
        print()
        print(f"note: plain closures gained only {one['wall'] / two['wall']:.2f}× from a second "
              "thread in this run, so the other CPU was busy: the two-thread rows mean little here.")

    print()
    print("Per benchmark (p50 per call; time ratios above use wall clock)")
    header = (f"{'benchmark':<56} {'wall ns':>11} {'cpu ns':>11} {'mallocs':>9} "
              f"{'M calls/s':>10} {'samples':>8}")
    print(header)
    print("-" * len(header))
    for name in sorted(results):
        r = results[name]
        print(f"{name:<56} {r['wall']:>11.2f} {r['cpu']:>11.2f} {r['mallocs']:>9.3f} "
              f"{1e3 / r['wall']:>10.4f} {r['samples']:>8}")
    print()
    print(f"Targets met: {passed} of {passed + failed}")
    if markdown:
        print()
        print("| Part | Target | Measured | Ratio | Threshold | Result |")
        print("|---|---|---|---|---|---|")
        for row in table:
            print("| " + " | ".join(row) + " |")
    if strict and failed:
        sys.exit(1)


if __name__ == "__main__":
    main()
