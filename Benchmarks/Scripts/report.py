#!/usr/bin/env python3
"""Prints issue 4's targets from one package-benchmark run exported with `--format jmh`.

Every benchmark makes a million calls per measured iteration (scalingFactor .mega), and the
JMH export keeps the raw per-iteration values (times in microseconds, counts as they are),
so dividing by a million gives the per-call figure without the rounding of the text output.

usage: report.py RESULTS.jmh.json [--strict]
"""

import json
import sys

CALLS_PER_ITERATION = 1_000_000
WALL = "Time (wall clock)"
CPU = "Time (total CPU)"
MALLOC = "Malloc (total)"

# A call "does not allocate" when the median iteration averages below this many mallocs per
# call: a per-call allocation shows as 1.0 or more, the harness's own as about 0.00002.
ZERO_MALLOCS = 0.005


def load(path):
    with open(path) as file:
        elements = json.load(file)
    results = {}
    for element in elements:
        name = element["benchmark"].split(".", 3)[-1].replace("_", " ")
        metrics = dict(element["secondaryMetrics"])
        p50 = {key: value["scorePercentiles"]["50.0"] for key, value in metrics.items()}
        results[name] = {
            "wall": p50[WALL] * 1_000 / CALLS_PER_ITERATION,  # µs per iteration → ns per call
            "cpu": p50[CPU] * 1_000 / CALLS_PER_ITERATION,
            "mallocs": p50[MALLOC] / CALLS_PER_ITERATION,
            "samples": len(element["primaryMetric"]["rawData"][0]),
        }
    return results


def main():
    args = [arg for arg in sys.argv[1:] if not arg.startswith("--")]
    strict = "--strict" in sys.argv
    results = load(args[0])

    def get(name):
        return results.get(name)

    # Each row: number, what, ActionPipe benchmark, reference benchmark, kind, threshold.
    #   kind "le":     ActionPipe / reference ≤ threshold (times, wall clock p50)
    #   kind "ge":     reference / ActionPipe ≥ threshold (how many times faster)
    #   kind "tput":   throughput(ActionPipe) / throughput(reference) ≥ threshold
    #   kind "malloc": mallocs per call of ActionPipe = 0
    #   kind "info":   a ratio shown for context, not a target
    t1 = "T1 ActionPipe 3 pipes"
    rows = [
        ("1", "3 pipes vs 3 closures", t1, "T1 Baseline 3 closures", "le", 2.0),
        ("1", "mallocs per call, 3 pipes", t1, None, "malloc", 0),
        ("2", "10 pipes vs 10 closures", "T2 ActionPipe 10 pipes", "T2 Baseline 10 closures", "le", 2.0),
        ("3", "100 pipes, 3 handlers vs target 1", "T3 ActionPipe 100 pipes, 3 handlers", t1, "le", 1.3),
        ("4", "state + upstream conditions vs target 1",
         "T4 ActionPipe 3 pipes, state + upstream conditions", t1, "le", 1.3),
        ("5", "mallocs per call, side data + rewrite",
         "T5 ActionPipe 3 pipes, side data + rewrite", None, "malloc", 0),
        ("6", "faster than naive pipe chain", t1, "T6 Peer naive pipe chain 3 pipes", "ge", 3.0),
        ("6", "faster than OpenCombine 3 maps", t1, "T6 Peer OpenCombine 3 maps", "ge", 3.0),
        ("7", "throughput, 2 threads vs 1", "T7 ActionPipe 2 threads", "T7 ActionPipe 1 thread", "tput", 1.6),
        ("8", "async call vs target 1", "T8 ActionPipe async 3 pipes", t1, "le", 3.0),
        ("i", "bound action (no key path) vs 3 closures", "T1 ActionPipe 3 pipes, bound action",
         "T1 Baseline 3 closures", "info", None),
        ("i", "bound action: 2 threads vs 1", "T7 ActionPipe 2 threads, bound action",
         "T7 ActionPipe 1 thread, bound action", "info-tput", None),
        ("i", "5 vs target 1 (time)", "T5 ActionPipe 3 pipes, side data + rewrite", t1, "info", None),
        ("i", "closures: 2 threads vs 1 (machine)",
         "T7 Baseline 2 threads, 3 closures", "T7 Baseline 1 thread, 3 closures", "info-tput", None),
    ]

    header = f"{'#':<2} {'target':<41} {'measured':>30} {'ratio':>9} {'threshold':>10}  result"
    print(header)
    print("-" * len(header))
    passed = failed = 0
    for number, what, subject, reference, kind, threshold in rows:
        a = get(subject)
        b = get(reference) if reference else None
        if a is None or (reference and b is None):
            print(f"{number:<2} {what:<41} {'not measured':>30} {'':>9} {'':>10}  -")
            if kind not in ("info", "info-tput"):
                failed += 1
            continue
        if kind == "malloc":
            measured = f"{a['mallocs']:.3f} mallocs/call"
            ratio_text = ""
            limit = "= 0"
            ok = a["mallocs"] < ZERO_MALLOCS
        else:
            measured = f"{a['wall']:.1f} ns vs {b['wall']:.1f} ns"
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
        print(f"{number:<2} {what:<41} {measured:>30} {ratio_text:>9} {limit:>10}  {result}")

    one, two = get("T7 Baseline 1 thread, 3 closures"), get("T7 Baseline 2 threads, 3 closures")
    if one and two and one["wall"] / two["wall"] < 1.8:
        print()
        print(f"note: plain closures gained only {one['wall'] / two['wall']:.2f}× from a second thread in "
              "this run, so the other CPU was busy: target 7 is not meaningful in this run.")

    print()
    print("Per benchmark (p50 per call; time ratios above use wall clock)")
    header = f"{'benchmark':<52} {'wall ns':>9} {'cpu ns':>9} {'mallocs':>9} {'M calls/s':>10} {'samples':>8}"
    print(header)
    print("-" * len(header))
    for name in sorted(results):
        r = results[name]
        print(f"{name:<52} {r['wall']:>9.2f} {r['cpu']:>9.2f} {r['mallocs']:>9.3f} "
              f"{1e3 / r['wall']:>10.2f} {r['samples']:>8}")
    print()
    print(f"Targets met: {passed} of {passed + failed}")
    if strict and failed:
        sys.exit(1)


if __name__ == "__main__":
    main()
