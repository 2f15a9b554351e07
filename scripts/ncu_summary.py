#!/usr/bin/env python3
"""One table of the Nsight Compute metrics that an `ncu` step of the device
experiments (scripts/device/run.py; `targets --only profile`) collected: one row per profiled kernel launch, the columns a
reader needs to tell what bounds it (memory, issue slots, a pipe, latency).

usage: ncu_summary.py NCU_DIR [--markdown]
"""
import csv
import io
import os
import re
import sys

STALLS = ["long_scoreboard", "lg_throttle", "math_pipe_throttle", "mio_throttle", "short_scoreboard",
          "wait", "barrier", "not_selected"]
PIPES = {"alu": "sm__pipe_alu_cycles_active.avg.pct_of_peak_sustained_active",
         "fma": "sm__pipe_fma_cycles_active.avg.pct_of_peak_sustained_active",
         "lsu": "sm__inst_executed_pipe_lsu.avg.pct_of_peak_sustained_active",
         "xu": "sm__inst_executed_pipe_xu.avg.pct_of_peak_sustained_active"}


def number(text):
    try:
        return float(text.replace(",", ""))
    except ValueError:
        return None


def launches(path):
    """{(launch id, kernel name): {metric: value}} of one ncu --csv file."""
    with open(path) as f:
        text = f.read()
    start = text.find('"ID"')
    if start < 0:
        return {}
    out = {}
    for row in csv.DictReader(io.StringIO(text[start:])):
        key = (row["ID"], row["Kernel Name"])
        out.setdefault(key, {})[row["Metric Name"]] = number(row["Metric Value"])
    return out


def pixels_of(tag):
    """Input pixels of a case named FILTER_PARAMS_SIZE_VARIANT (one channel; SIZE: N or WxH)."""
    size = next(part for part in tag.split("_") if re.fullmatch(r"\d+(x\d+)?", part))
    width, _, height = size.partition("x")
    return int(width) * int(height or width)


def row_of(tag, kernel, m):
    g = lambda k: m.get(k) or 0.0
    stalls = {s: g(f"smsp__average_warps_issue_stalled_{s}_per_issue_active.ratio") for s in STALLS}
    top = sorted(stalls.items(), key=lambda kv: -kv[1])[:2]
    pipe = max(PIPES, key=lambda p: g(PIPES[p]))
    return [tag, kernel[:40], f"{g('gpu__time_duration.sum') / 1000:.1f}",
            f"{g('dram__throughput.avg.pct_of_peak_sustained_elapsed'):.0f}",
            f"{(g('dram__bytes_read.sum') + g('dram__bytes_write.sum')) / 2**20:.0f}",
            f"{g('lts__t_bytes.sum') / 2**20:.0f}",
            f"{g('sm__inst_executed.sum') * 32 / pixels_of(tag):.1f}",
            f"{g('sm__inst_issued.avg.pct_of_peak_sustained_active'):.0f}",
            f"{pipe} {g(PIPES[pipe]):.0f}",
            f"{g('launch__registers_per_thread'):.0f}",
            f"{g('sm__warps_active.avg.pct_of_peak_sustained_active'):.0f}/{g('sm__maximum_warps_per_active_cycle_pct'):.0f}",
            ", ".join(f"{s} {v:.1f}" for s, v in top)]


HEADER = ["case", "kernel", "µs", "DRAM % of peak", "DRAM MiB", "L2 MiB", "thread instructions per input pixel", "issue slots %",
          "busiest pipe %", "regs", "occupancy % achieved/theoretical", "top stalls (cycles per issue)"]


def table(folder):
    rows = []
    for name in sorted(os.listdir(folder)):
        if name.endswith(".csv"):
            for (_, kernel), m in launches(os.path.join(folder, name)).items():
                rows.append(row_of(name[:-4], kernel, m))
    return rows


def print_markdown(folder):
    print("| " + " | ".join(HEADER) + " |")
    print("|" + " --- |" * len(HEADER))
    for r in table(folder):
        print("| " + " | ".join(r) + " |")


def main():
    if "--markdown" in sys.argv:
        print_markdown(sys.argv[1])
    else:
        for r in [HEADER] + table(sys.argv[1]):
            print("  ".join(r))


if __name__ == "__main__":
    main()
