#!/usr/bin/env python3
"""The hand side against the copy roofline (issue 57): from the runs of
scripts/device/experiments/hand_limit.conf (or the --csv file it keeps), each
memory-bound row's hand kernels at 8192² with their share of the copy
roofline measured in the same run (results.csv's roofline_pct), the best
first, against the issue's target share; and the seeds' classic kernels at
4096² and 8192².

With --levers FILE.csv (rows with a `call` column: the tuning calls of a
report), a table of each lever's kernels by shape instead, µs, the fastest of
each row and shape in bold.

usage: hand_limit.py RUN_DIR_OR_CSV... [--csv FILE.csv [--call N]]
       hand_limit.py --levers FILE.csv"""
import argparse
import csv
from pathlib import Path

# The target share of the copy roofline for each row (box r 7 and r 15: 80%).
TARGET = {("box", "radius=7"): 80, ("box", "radius=15"): 80}
CLASSIC = {"hw_grid_stride", "hw_shared16", "hw_texture", "hw_bubble", "hw_fast3x3", "hw_direct", "hw_naive"}
KEPT = ("filter", "variant", "width", "height", "channels", "params", "status", "samples", "median_us", "p25_us",
        "p75_us", "roofline_pct")


def rows_of(paths):
    out = []
    for path in map(Path, paths):
        files = [path] if path.is_file() else sorted(path.rglob("results.csv"))
        for f in files:
            with open(f) as handle:
                out += [r for r in csv.DictReader(handle) if r["status"] == "ok"]
    return out


def memory_table(rows):
    lines = ["| row | kernel | µs (p25–p75) | share of the copy roofline | target |", "| --- | --- | ---: | ---: | ---: |"]
    big = [r for r in rows if r["width"] == "8192" and r["variant"] not in CLASSIC - {"hw_naive"}]
    for key in dict.fromkeys((r["filter"], r["params"]) for r in big):
        mine = sorted((r for r in big if (r["filter"], r["params"]) == key), key=lambda r: float(r["median_us"]))
        for r in dict((r["variant"], r) for r in mine).values():
            lines.append(f"| {key[0]} {key[1]} | `{r['variant']}` | {float(r['median_us']):.1f} ({float(r['p25_us']):.1f}–"
                         f"{float(r['p75_us']):.1f}) | {float(r['roofline_pct']):.0f}% | {TARGET.get(key, 85)}% |")
    return lines


def classic_table(rows):
    lines = ["| row | kernel | 4096² µs | 8192² µs |", "| --- | --- | ---: | ---: |"]
    times = {}
    for r in rows:
        if r["variant"] in CLASSIC:
            times.setdefault((r["filter"], r["params"], r["variant"]), {})[r["width"]] = float(r["median_us"])
    for (f, params, v), t in times.items():
        if "4096" in t:
            lines.append(f"| {f} {params} | `{v}` | {t['4096']:.1f} | {t.get('8192', float('nan')):.1f} |")
    return lines


def shape(r):
    return "8192²" if r["width"] == r["height"] == "8192" else f"{r['width']}×{r['height']}"


def levers_table(path):
    """Per call and row: each kernel's median µs at each shape the call timed."""
    with open(path) as f:
        rows = list(csv.DictReader(f))
    lines = []
    for call in dict.fromkeys(r["call"] for r in rows):
        for key in dict.fromkeys((r["filter"], r["params"]) for r in rows if r["call"] == call):
            mine = [r for r in rows if r["call"] == call and (r["filter"], r["params"]) == key]
            shapes = list(dict.fromkeys(shape(r) for r in mine))
            best = {s: min(float(r["median_us"]) for r in mine if shape(r) == s) for s in shapes}
            lines += [f"| call {call}: {key[0]} {key[1]} | " + " | ".join(shapes) + " |",
                      "| --- |" + " ---: |" * len(shapes)]
            for v in dict.fromkeys(r["variant"] for r in mine):
                t = {shape(r): float(r["median_us"]) for r in mine if r["variant"] == v}
                cells = [("—" if s not in t else f"**{t[s]:.1f}**" if t[s] == best[s] else f"{t[s]:.1f}") for s in shapes]
                lines.append(f"| `{v}` | " + " | ".join(cells) + " |")
            lines.append("")
    return lines


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("runs", nargs="*")
    parser.add_argument("--csv", type=Path, help="also write the rows it read here (what a report keeps)")
    parser.add_argument("--levers", type=Path, help="a report's tuning rows (with a call column): their table")
    parser.add_argument("--call", help="with --csv: append the rows to it, each with this call column (a levers file)")
    args = parser.parse_args()
    if args.call and not args.csv:
        parser.error("--call appends to the --csv file: give it")
    if args.levers:
        print("\n".join(levers_table(args.levers)))
        return
    rows = rows_of(args.runs)
    if args.csv:  # with --call, appended to a levers file with its call column
        fresh = not (args.call and args.csv.exists())
        with open(args.csv, "w" if not args.call else "a", newline="") as f:
            w = csv.DictWriter(f, fieldnames=("call",) * bool(args.call) + KEPT, extrasaction="ignore",
                               lineterminator="\n")
            if fresh:
                w.writeheader()
            w.writerows({"call": args.call, **r} if args.call else r for r in rows)
    print("\n".join(["## The memory-bound rows at 8192² gray", ""] + memory_table(rows) +
                     ["", "## The seeds' classic kernels", ""] + classic_table(rows)))


if __name__ == "__main__":
    main()
