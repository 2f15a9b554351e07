#!/usr/bin/env python3
"""Prints the issue bars of a bench run as Markdown rows, computed from its results.csv.

usage, from the source tree: python3 -m reports.tools.bars RUN_DIR [RUN_DIR...]
(the rows of later runs replace earlier ones)
Each bar: best variant of a kind for a filter/params/size, against the roofline
percentage in the run or against a peer's time.
"""
import sys

from scripts import results_csv  # the schema's columns read by name

COLUMNS = ("filter", "variant", "backend", "kind", "width", "channels", "params", "status", "median_us", "roofline_pct")
rows = {}
for run in sys.argv[1:]:
    for r in results_csv.rows(f"{run}/results.csv", COLUMNS):
        if r["status"] == "ok" or r["status"].startswith("differs"):
            rows[(r["filter"], r["variant"], r["params"], int(r["width"]), int(r["channels"]))] = r


def best(filt, params, size, kind, backend):
    found = [r for (f, v, p, w, c), r in rows.items()
             if f == filt and p == params and w == size and c == 1 and r["kind"] == kind
             and r["backend"] == backend and r["status"] == "ok"]
    return min(found, key=lambda r: float(r["median_us"])) if found else None


def peer(filt, params, size, name):
    return rows.get((filt, name, params, size, 1))


def roof_bar(filt, params, size, kind, backend, target):
    r = best(filt, params, size, kind, backend)
    pct = float(r["roofline_pct"])
    need = float(r["median_us"]) * pct / target
    verdict = "met" if pct >= target else f"missed by {target - pct:.1f} points (needs ≤ {need:.1f} µs)"
    print(f"| {filt} {params} {size}², best {kind} {backend}: ≥ {target}% of roofline | "
          f"`{r['variant']}` {float(r['median_us']):.2f} µs, {pct:.1f}% | {verdict} |")


def peer_bar(filt, params, size, kind, backend, peer_name, factor):
    r, p = best(filt, params, size, kind, backend), peer(filt, params, size, peer_name)
    ratio = float(p["median_us"]) / float(r["median_us"])
    verdict = "met" if ratio >= factor else "missed"
    print(f"| {filt} {params} {size}², best {kind} {backend}: ≥ {factor}× `{peer_name}` "
          f"({float(p['median_us']):.2f} µs) | `{r['variant']}` {float(r['median_us']):.2f} µs, "
          f"{ratio:.2f}× | {verdict} |")


print("| bar | measured | verdict |")
print("| --- | --- | --- |")
for filt, params, size, kind, backend, what, arg in [
    ("median", "size=3", 8192, "handwritten", "cuda", "roof", 70),
    ("median", "size=3", 8192, "halide", "cuda", "roof", 70),
    ("median", "size=3", 4096, "handwritten", "cuda", ("npp_median", 2), None),
    ("median", "size=3", 4096, "halide", "cuda", ("npp_median", 2), None),
    ("median", "size=5", 4096, "handwritten", "cuda", ("npp_median", 2), None),
    ("median", "size=5", 4096, "halide", "cuda", ("npp_median", 2), None),
    ("median", "size=3", 8192, "halide", "cpu", ("opencv_median_blur", 1), None),
    ("median", "size=5", 4096, "halide", "cpu", ("opencv_median_blur", 1), None),
    ("gaussian", "sigma=1", 8192, "handwritten", "cuda", "roof", 75),
    ("gaussian", "sigma=1", 8192, "halide", "cuda", "roof", 75),
    ("gaussian", "sigma=1", 8192, "handwritten", "cuda", ("npp_gaussian", 3), None),
    ("gaussian", "sigma=1", 8192, "halide", "cuda", ("npp_gaussian", 3), None),
    ("gaussian", "sigma=1", 8192, "halide", "cpu", ("opencv_gaussian_blur", 1), None),
    ("maxpool", "", 8192, "handwritten", "cuda", "roof", 80),
    ("maxpool", "", 8192, "halide", "cuda", "roof", 80),
]:
    label = f"{filt} {params} {size}², best {kind} {backend}"
    if best(filt, params, size, kind, backend) is None:
        print(f"| {label} | not measured in these runs | — |")
    elif what == "roof":
        roof_bar(filt, params, size, kind, backend, arg)
    elif peer(filt, params, size, what[0]) is None:
        print(f"| {label} against `{what[0]}` | `{what[0]}` not measured in these runs | — |")
    else:
        peer_bar(filt, params, size, kind, backend, what[0], what[1])
