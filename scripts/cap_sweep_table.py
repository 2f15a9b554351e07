#!/usr/bin/env python3
"""The register-cap sweeps of a device call as one table: per row (filter,
size, parameters) and swept schedule, the median µs (and interquartile range)
at each cap of the launch's axis the runs hold (a column each, the points'
max_registers; 0 is TVM's own choice, no cap written), the best marked, and
the row's fastest handwritten kernel timed after it.

usage: cap_sweep_table.py RUNS_DIR  (bench run directories of `filterlab sweep`, results.csv each)
"""
import os
import sys

import results_csv

CAP_AXIS = "max_registers"  # the register cap in a result's point (the launch's axis)

COLUMNS = ("filter", "variant", "kind", "point", "width", "channels", "params", "status", "median_us", "p25_us",
           "p75_us")


def read(folder):
    """{(filter, width, params): {"points": {schedule: {cap: row}}, "hand": [rows]}} of every ok one-channel result."""
    out = {}
    for root, _, files in sorted(os.walk(folder)):
        if "results.csv" not in files:
            continue
        for r in results_csv.rows(os.path.join(root, "results.csv"), COLUMNS):
            if r["status"] != "ok" or r["channels"] != "1":
                continue
            row = out.setdefault((r["filter"], int(r["width"]), r["params"]), {"points": {}, "hand": []})
            point = dict(kv.split("=") for kv in r["point"].split("+")) if r["point"] else {}
            if r["kind"] == "handwritten":
                row["hand"].append(r)
            elif CAP_AXIS in point:
                schedule = r["variant"].split("[")[0]
                row["points"].setdefault(schedule, {})[int(point[CAP_AXIS])] = r
    return out


def cell(r, best):
    text = f"{float(r['median_us']):.1f} ({float(r['p25_us']):.1f}–{float(r['p75_us']):.1f})"
    return f"**{text}**" if r is best else text


def main(argv):
    table = read(argv[0])
    caps = sorted({cap for row in table.values() for by_cap in row["points"].values() for cap in by_cap})
    print("| filter | size | parameters | schedule | " + " | ".join(f"cap {c}" for c in caps) +
          " | best / at 64 | fastest handwritten |")
    print("| --- | --- | --- | --- | " + " | ".join("---:" for _ in caps) + " | ---: | --- |")
    for (filter_, width, params), row in sorted(table.items()):
        hand = min(row["hand"], key=lambda r: float(r["median_us"]), default=None)
        hand_text = f"`{hand['variant']}` {float(hand['median_us']):.1f}" if hand else "—"
        for schedule, by_cap in sorted(row["points"].items()):
            best = min(by_cap.values(), key=lambda r: float(r["median_us"]))
            at_64 = by_cap.get(64)
            ratio = f"{float(best['median_us']) / float(at_64['median_us']):.3f}" if at_64 else "—"
            cells = [cell(by_cap[c], best) if c in by_cap else "—" for c in caps]
            print(f"| {filter_} | {width}² | {params or '—'} | `{schedule}` | " + " | ".join(cells) +
                  f" | {ratio} | {hand_text} |")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
