#!/usr/bin/env python3
"""reports/mpi/streaming.md's tables, from the outputs of the `stream` experiment
(scripts/device/experiments/stream.conf) kept in reports/mpi/streaming_issue44/: file-to-file
walls of one 32768x32768 PGM per call, each rank's phases beside the bus's limit, the fixed
cost of a process, the 10 GB image, and the batch's speed-up on 2 GPUs run after run.

usage: stream_report.py DIR   (prints Markdown; DIR holds call*_*.txt)
"""
import os
import re
import statistics
import sys

PCIE_GBPS = 50.0  # PCIe Gen5 x16, about 50 GB/s a direction (issue 44)
GIB = 1 << 30

CALLS = [  # file, the call's label, what it was
    ("call1_stream.txt", "1", "pwrite, 4 I/O threads, ranks bound to a core, 2 GPUs visible"),
    ("call2_stream.txt", "2", "mapped writes, 8 I/O threads, ranks bound to a core, 2 GPUs visible"),
    ("call2_stream_pwrite.txt", "2p", "as 2, with --pwrite"),
    ("call3_all.txt", "3", "as 2, ranks unbound (--bind-to none)"),
    ("call4_all.txt", "4", "as 2, one GPU visible (CUDA_VISIBLE_DEVICES=0)"),
    ("call5_stream.txt", "5", "a machine with one H100 (16 cores), tree of 77b3527, one run a line"),
    ("call6_stream.txt", "6", "as 5, tree of a66e28e (blocking streams, after the review)"),
    ("call7_stream.txt", "7", "as 5, the final tree (PNG outputs; one owner for broadcasts and phases)"),
    ("call8_gpus.txt", "8", "2 GPUs visible, tree of 9c1ce06: one process on one GPU, then on both (--gpus 2)"),
    ("call9_gpus.txt", "9", "as 8, tree of ebd3feb (each device's slots made on its own thread; setup timed); NL-means"),
    ("call10_gpus.txt", "10", "as 9, tree of e2f4c3a (the first bands read while the worker is made)"),
    ("call10_one_gpu.txt", "10o", "as 10, one GPU visible (CUDA_VISIBLE_DEVICES=0)"),
    ("call11_one_gpu.txt", "11o", "as 10o, the final tree (early reads stop once the worker is ready), one run a line"),
]


def read(folder, name):
    path = os.path.join(folder, name)
    return open(path).read() if os.path.exists(path) else ""


def wall_tables(folder):
    """The runner's median-wall tables: (call, line, how, median, range, ok)."""
    rows = []
    for name, what, _ in CALLS:
        for m in re.finditer(r"^\| (.+?) \| (.+?) \| ([\d.]+) \| ([\d.–]+) \| (\d+/\d+) \|$", read(folder, name), re.M):
            rows.append((what, *m.groups()))
    return rows


PHASES = re.compile(r"read ([\d.]+) s, upload ([\d.]+) ms, kernel ([\d.]+) ms, download ([\d.]+) ms "
                    r"\(device first to last ([\d.]+) ms\), write ([\d.]+) s, (\d+) bands, ([\d.]+) s in all"
                    r"(?: \(setup ([\d.]+) s\))?")


def phase_rows(folder, name):
    """Mean phases per (command, rank) of one call's runs of a 32768² image."""
    groups, command, size = {}, None, ""
    for line in read(folder, name).splitlines():
        if line.startswith("$ ") and "filterlab run" in line:
            command = re.sub(r" -o out\.pgm| -i in\.pgm", "", line[2:]).strip()
        if ": 32768x32768x" in line or ": 100000x" in line:
            size = line.split(": ")[1].split(" ")[0]
        m = PHASES.search(line)
        if m and command and size.startswith("32768x32768"):
            rank = line.split(":")[0] if line.startswith("rank ") else "1 process"
            groups.setdefault((command, rank), []).append([float(v) if v else float("nan") for v in m.groups()])
    return [(c, r, [statistics.mean(col) for col in zip(*values)], len(values)) for (c, r), values in groups.items()]


def rank_ratio(folder, run):
    """Per case, the slower rank's pinned time over the faster's (batch_ranks/RUN.csv)."""
    path = os.path.join(folder, "batch_ranks", run.replace("_", "-") + ".csv")
    if not os.path.exists(path):
        return {}
    times = {}
    for line in open(path).read().splitlines()[1:]:
        f = line.split(",")
        times.setdefault(f[0] + "/" + f[1], []).append(float(f[7]))
    return {case: max(t) / min(t) for case, t in times.items()}


def batch_rows(folder, name):
    """Speed-ups of each 2-rank batch over the call's 1-rank batch: (run, case, speed-up, ranks' ratio)."""
    text = read(folder, name)
    one = {m.group(2) + "/" + m.group(3): float(m.group(4)) for m in re.finditer(
        r"\[\d/6[^\]]*\] (\S+ )?(\w+) (\w+) 20 x \S+ .*?pinned end to end ([\d.]+) ms",
        text.split("#### batch_2ranks")[0])}
    rows = []
    for part in text.split("#### ")[1:]:
        run = part.split("\n", 1)[0]
        if "2ranks" not in run:
            continue
        ratio = rank_ratio(folder, run)
        for m in re.finditer(r"^\s+(\S+) x3: slowest rank ([\d.]+) ms pinned", part, re.M):
            case = m.group(1)
            rows.append((run, case, one[case] / float(m.group(2)) if case in one else float("nan"),
                         ratio.get(case, float("nan"))))
    return rows


def main():
    folder = sys.argv[1] if len(sys.argv) > 1 else "reports/mpi/streaming_issue44"
    print("<!-- Tables made by `python3 scripts/stream_report.py reports/mpi/streaming_issue44`; "
          "the words around them by hand. -->\n")
    print("### One 32768² gray PGM, file to file (wall of the whole command, seconds)\n")
    print("Calls: " + "; ".join(f"**{label}** {what}" for _, label, what in CALLS) + ".\n")
    print("| call | line | how | median | range | runs ok |\n| --- | --- | --- | ---: | --- | --- |")
    for row in wall_tables(folder):
        print("| " + " | ".join(row) + " |")
    bus_ms = GIB / (PCIE_GBPS * 1e9) * 1e3
    for name, label, what in CALLS[3:]:
        print(f"\n### Phases, call {label} (means; host threads' busy seconds, device milliseconds)\n")
        print(f"Bus limit for one GiB one way at {PCIE_GBPS:.0f} GB/s: {bus_ms:.1f} ms "
              f"(a rank of 2 moves half a GiB each way: {bus_ms / 2:.1f} ms).\n")
        print("| command | rank | read s | upload ms | kernel ms | download ms | device first→last ms | write s | "
              "bands | in all s | of it setup s | runs |\n| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
        for command, rank, v, n in phase_rows(folder, name):
            print(f"| `{command}` | {rank} | {v[0]:.3f} | {v[1]:.1f} | {v[2]:.2f} | {v[3]:.1f} | {v[4]:.0f} | "
                  f"{v[5]:.3f} | {v[6]:.0f} | {v[7]:.3f} | {'—' if v[8] != v[8] else f'{v[8]:.3f}'} | {n} |")
    print("\n### The batch: 20 RGB 4096×2304 images, 2 ranks against 1 in the same call (pinned, end to end)\n")
    print("| run | case | speed-up | slower rank / faster |\n| --- | --- | ---: | ---: |")
    for name in ("call3_all.txt", "call4_all.txt"):
        for run, case, speedup, ratio in batch_rows(folder, name):
            print(f"| {run} | `{case}` | {speedup:.2f} | {ratio:.2f} |")
    copies = read(folder, "call8_copies.txt")
    print("\n### What two GPUs' pinned copies share (call 8, `scripts/copy_sharing.py`)\n")
    for line in copies.splitlines():
        if line.startswith(("2 GPUs", "host memory")):
            print(f"{line}\n")
        elif line.startswith("|"):
            print(line)
    huge = read(folder, "call2_huge.txt")
    print("\n### 100000 × 100000 (10 GB), one GPU of two\n")
    for line in huge.splitlines():
        if line.startswith(("$ filterlab", "phases", "wall", "bytes", "made")):
            print(f"    {line}")


if __name__ == "__main__":
    main()
