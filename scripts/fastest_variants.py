#!/usr/bin/env python3
"""Ranks each filter's variants by H100 bench runs, for the public API's
default variant: writes the reviewed table runtime/core/default_rankings.inc
(committed; the build compiles it and reads no results), a C++ include of
  {filter, backend, params, width, height, {variant, fastest first...}},
one per filter, backend and parameter set, from the largest one-channel size
measured; rows of status ok only, and only FilterLab's own kinds (halide,
handwritten): peers are not in the library. At the same size a newer run (by
the time in its directory's name) replaces the times of the variants it
measured and keeps the others' (a run of a few variants, such as the OpenCL
twins, does not drop the rest).

usage: fastest_variants.py OUTPUT RESULTS_CSV...
e.g.   python3 scripts/fastest_variants.py runtime/core/default_rankings.inc \
           reports/h100/run-*/results.csv reports/targets/one_call/runs/*/results.csv
Each entry names the run it was ranked from.
"""
import os
import sys

import results_csv

COLUMNS = ("filter", "variant", "backend", "kind", "width", "height", "channels", "params", "status", "median_us")


def main(output, paths):
    best = {}  # (filter, backend, params) -> (pixels, width, height, {variant: median_us})
    # Oldest run first, by the time in its directory's name (run-<what>-YYYYMMDD-HHMMSS).
    for path in sorted(paths, key=lambda p: os.path.basename(os.path.dirname(p))[-15:]):
        for row in results_csv.rows(path, COLUMNS):
            if row["status"] != "ok" or row["kind"] not in ("halide", "handwritten") or row["channels"] != "1":
                continue
            key = (row["filter"], row["backend"], row["params"])
            width, height = int(row["width"]), int(row["height"])
            pixels = width * height
            known = best.get(key)
            # A larger size starts the ranking afresh.
            if known is None or pixels > known[0]:
                known = best[key] = (pixels, width, height, {}, path)
            if pixels == known[0]:
                known[3][row["variant"]] = float(row["median_us"])
    lines = ["// The API's default variants: written by scripts/fastest_variants.py (its usage says how),\n"
             "// reviewed and committed; each ranking names the run it came from. Do not edit by hand.\n"]
    for (filter_, backend, params), (_, width, height, times, path) in sorted(best.items()):
        ranked = ", ".join(f'"{v}"' for v, _ in sorted(times.items(), key=lambda item: item[1]))
        lines.append(f"// {os.path.relpath(os.path.dirname(path))} and the newer runs at this size\n")
        lines.append(f'{{"{filter_}", "{backend}", "{params}", {width}, {height}, {{{ranked}}}}},\n')
    text = "".join(lines)
    try:
        with open(output) as f:
            if f.read() == text:
                return
    except FileNotFoundError:
        pass
    with open(output, "w") as f:
        f.write(text)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2:])
