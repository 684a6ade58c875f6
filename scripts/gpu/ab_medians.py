#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# Part of Tessera.
"""Medians of an A/B log of ab_layouts.sh (the ab_b<beta>.txt files of
ab_onecall.sh): per problem and kernel label, the median ratio to cuBLAS
(and TFLOP/s) of the old and the new build (and of "alt", the third build
ab_layouts.sh times where ab_alt/ exists), each one's difference from old,
and every alternation's value, so that overlapping rounds show.

Usage: scripts/gpu/ab_medians.py LOG [LOG ...]
       scripts/gpu/ab_medians.py --self-test   (a hand-made log; run by ctest)

The log's lines it reads (anything else is skipped):
  == old, round 2               which build (old, new, alt) the lines below belong to
  4096x4096x4096 tn ...         a problem
    default  661.2  0.968x      a kernel label, TFLOP/s, ratio to cuBLAS
"""
import re
import statistics
import sys
from collections import defaultdict

SIDE = re.compile(r"== (old|new|alt), round \d+")
PROBLEM = re.compile(r"^(\d+x\d+x\d+ \w+)")
ROW = re.compile(r"^\s+(\S+)\s+([\d.]+)\s+([\d.]+)x")


def read(path):
    """{(problem, label): {"old": [(ratio, tflops)], "new": [...], "alt": [...]}} in log order."""
    rows = defaultdict(lambda: {"old": [], "new": [], "alt": []})
    side = problem = None
    with open(path) as f:
        for line in f:
            m = SIDE.match(line)
            if m:
                side = m.group(1)
                continue
            m = PROBLEM.match(line)
            if m:
                problem = m.group(1)
                continue
            m = ROW.match(line)
            if m and side and problem:
                rows[(problem, m.group(1))][side].append((float(m.group(3)), float(m.group(2))))
    return rows


def summary(values):
    """(median ratio, median TFLOP/s) of one side's [(ratio, tflops)]."""
    return statistics.median(r for r, _ in values), statistics.median(t for _, t in values)


def medians(rows, problem, label, side="new"):
    """(old median ratio, `side`'s median ratio) of one problem and label."""
    sides = rows[(problem, label)]
    return summary(sides["old"])[0], summary(sides[side])[0]


# Three alternations of two problems, one round of a third build (alt),
# a line of other output and a problem whose new side is missing.
SELF_TEST_LOG = """both built in 240s
== old, round 1
4096x4096x4096 tn bf16
  default   661.2   0.968x
  cublas    683.0   1.000x
64x28672x4096 tn bf16
  default   195.4   0.815x
== new, round 1
4096x4096x4096 tn bf16
  default   650.0   0.950x
== old, round 2
4096x4096x4096 tn bf16
  default   670.0   0.980x
64x28672x4096 tn bf16
  default   190.0   0.801x
== new, round 2
4096x4096x4096 tn bf16
  default   655.0   0.960x
== alt, round 2
4096x4096x4096 tn bf16
  default   690.0   0.990x
== old, round 3
4096x4096x4096 tn bf16
  default   640.0   0.940x
== new, round 3
4096x4096x4096 tn bf16
  default   700.0   0.990x
"""


def self_test():
    import os
    import tempfile
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as f:
        f.write(SELF_TEST_LOG)
        path = f.name
    try:
        rows = read(path)
    finally:
        os.unlink(path)
    checks = [
        (set(rows) == {("4096x4096x4096 tn", "default"), ("4096x4096x4096 tn", "cublas"),
                       ("64x28672x4096 tn", "default")}, "problems and labels"),
        (medians(rows, "4096x4096x4096 tn", "default") == (0.968, 0.960), "medians of three rounds"),
        ([t for _, t in rows[("4096x4096x4096 tn", "default")]["new"]] == [650.0, 655.0, 700.0],
         "TFLOP/s in log order"),
        (rows[("64x28672x4096 tn", "default")]["new"] == [], "a side without rows stays empty"),
        (medians(rows, "4096x4096x4096 tn", "default", "alt") == (0.968, 0.990), "the third build, alt"),
        (rows[("64x28672x4096 tn", "default")]["alt"] == [], "alt only where the log has it"),
        (len(rows[("4096x4096x4096 tn", "cublas")]["old"]) == 1, "a row of one round"),
    ]
    failed = [what for ok, what in checks if not ok]
    for what in failed:
        print(f"FAILED: {what}")
    if failed:
        return 1
    print("ab_medians self-test passed")
    return 0


def main(paths):
    if paths == ["--self-test"]:
        return self_test()
    if not paths:
        print(__doc__.strip())
        return 2
    for path in paths:
        print(f"== {path}")
        rows = read(path)
        if not rows:
            print("  no A/B rows found")
            continue
        for (problem, label), sides in rows.items():
            old = sides["old"]
            for side in ("new", "alt"):
                other = sides[side]
                if side == "alt" and not other:
                    continue  # no third build in this log
                if not old or not other:
                    print(f"  {problem:22s} {label:10s} one side missing (old {len(old)}, {side} {len(other)})")
                    continue
                mo, to = summary(old)
                mn, tn = summary(other)
                print(f"  {problem:22s} {label:10s} old {mo:.3f} ({to:.1f}) {side} {mn:.3f} ({tn:.1f}) "
                      f"{100 * (mn / mo - 1):+.1f}%  old {[round(r, 3) for r, _ in old]} "
                      f"{side} {[round(r, 3) for r, _ in other]}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
