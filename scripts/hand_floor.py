#!/usr/bin/env python3
"""The floor under a kernel bound by arithmetic (issue 57: the 5x5 and 7x7
medians, NL-means), from its Nsight Compute profile (an `ncu` step of
scripts/device/experiments/hand_limit.conf, `metrics = full`).

A pipe that is busy a share s of the kernel's active cycles would do the same
work in s times the kernel's time if it never waited: that is the floor the
pipe sets for this instruction stream, which is its instructions x pixels /
the chip's throughput for them, measured by the profiler against the chip's
own peak (no clock or SM count typed in). The issue slots set the floor of
the whole stream the same way. Per row: the kernel's time, its thread
instructions a pixel, the issue-slot and busiest pipe shares, those two
floors, and the gap from the time to the higher floor (what scheduling alone
could win; beyond it only fewer instructions help).

usage: hand_floor.py NCU_CSV...   (file names as the ncu step writes them:
FILTER_PARAMS_SIZE_VARIANT.csv, SIZE a square's side)"""
import os
import re
import sys

from ncu_summary import PIPES, launches


def row(path):
    """The floors of the file's kernels (its longest launch), one dict."""
    name = os.path.basename(path)[:-4]
    size = int(re.search(r"_(\d+)_[a-z0-9_]+$", name).group(1))
    metrics = max(launches(path).values(), key=lambda m: m.get("gpu__time_duration.sum") or 0)
    us = metrics["gpu__time_duration.sum"] / 1000
    issued = metrics["sm__inst_issued.avg.pct_of_peak_sustained_active"]
    pipe, busy = max(((p, metrics.get(m) or 0) for p, m in PIPES.items()), key=lambda pm: pm[1])
    floor = us * max(issued, busy) / 100
    return {"case": name, "us": us, "per_pixel": metrics["sm__inst_executed.sum"] * 32 / size ** 2,
            "issued": issued, "pipe": pipe, "busy": busy, "issue_floor": us * issued / 100,
            "pipe_floor": us * busy / 100, "gap": us - floor}


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    print("| case | µs | thread instructions a pixel | issue slots % | busiest pipe % | issue floor µs "
          "| pipe floor µs | time above the higher floor |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    for path in sys.argv[1:]:
        r = row(path)
        print(f"| {r['case']} | {r['us']:.1f} | {r['per_pixel']:.1f} | {r['issued']:.0f} | {r['pipe']} {r['busy']:.0f} "
              f"| {r['issue_floor']:.1f} | {r['pipe_floor']:.1f} | {r['gap']:.1f} µs ({r['gap'] / r['us']:.0%}) |")


if __name__ == "__main__":
    main()
