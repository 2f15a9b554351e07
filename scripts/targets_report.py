#!/usr/bin/env python3
"""Issue 15's targets against one device call's measurements: for each row of
scripts/targets_rows.txt, the best handwritten and Halide variants of the row
(median time and interquartile range from the bench's results.csv files, the
Python peers' included), each target met or missed, and the Nsight Compute
metrics of the row's kernels (scripts/ncu_summary.py) beside it.

usage: targets_report.py --rows scripts/targets_rows.txt --runs DIR [--ncu DIR] [--verdict]
--verdict: the GPU rows only, as the README's table in three columns (best
hand, best Halide, best TVM, each DSL's ratio to the hand, the fastest peer).
A peer whose check found another function than the contract's (status
`differs` in its results.csv) is marked †, and a footnote under the table
gives its note (how far from the contract it is).
"""
import argparse
import os

import ncu_summary
import results_csv
import targets_rows

COLUMNS = ("filter", "variant", "backend", "kind", "width", "channels", "params", "status", "median_us", "p25_us",
           "p75_us")


def parse_rows(path):
    """The rows of the rows file (scripts/targets_rows.py reads it by column name), params as 'a=1 b=2', sorted."""
    return [dict(filter=r["filter"], size=int(r["size"]),
                 params="" if r["params"] == "-" else " ".join(sorted(r["params"].split(","))),
                 targets=r["targets"].split(","), variants=r["variants"])
            for r in targets_rows.rows(path)]


def read_results(folder):
    """Every ok result under folder: {(filter, size, params): [row, ...]} (params as 'a=1 b=2', sorted)."""
    out = {}
    for root, _, files in os.walk(folder):
        if "results.csv" in files:
            for r in results_csv.rows(os.path.join(root, "results.csv"), COLUMNS):
                if r["status"] not in ("ok", "differs") or r["channels"] != "1" or not r["median_us"]:
                    continue
                params = " ".join(sorted(r["params"].split()))
                r["run"] = os.path.relpath(root, folder)
                out.setdefault((r["filter"], int(r["width"]), params), []).append(r)
    return out


def us(r):
    return float(r["median_us"])


DIFFERS = "†"  # a peer that computes another function than the contract (../shared/FILTERS.md)


def mark(r, marked=None):
    """† after a peer whose check found another function (status `differs`), remembered in `marked`."""
    if r is None or r["kind"] != "peer" or r["status"] != "differs":
        return ""
    if marked is not None:
        marked.setdefault(r["variant"], (r["params"], r.get("note", "")))
    return DIFFERS


def print_footnote(marked):
    """The footnote of the marked peers, each with the results.csv note of its first marked row."""
    if marked:
        print(f"\n{DIFFERS} Computes another function than the contract (`../shared/FILTERS.md`; status `differs`): "
              + "; ".join(f"`{v}` ({params or 'no parameters'}): {note or 'no note'}"
                          for v, (params, note) in sorted(marked.items())) + ".")


def fmt(r, marked=None):
    if r is None:
        return "—"
    t = us(r)
    text = f"{t:.1f} µs" if t < 1000 else f"{t / 1000:.2f} ms"
    return f"`{r['variant']}`{mark(r, marked)} {text} (IQR {float(r['p25_us']):.1f}–{float(r['p75_us']):.1f})"


def best(results, kind, backend):
    pick = [r for r in results if r["kind"] == kind and r["backend"] == backend]
    return min(pick, key=us) if pick else None


def verdict(row, results, marked=None):
    backend = "cpu" if any(t.startswith("peer") for t in row["targets"]) else "cuda"
    hand, halide = best(results, "handwritten", backend), best(results, "halide", backend)
    lines = []
    for target in row["targets"]:
        name, bound = target.split("<=") if "<=" in target else target.split(">=")
        if name == "hand":
            ok = hand is not None and us(hand) <= float(bound)
            got = fmt(hand)
            lines.append((f"handwritten ≤ {bound} µs", got, ok))
        elif name in ("halide", "tvm") and backend == "cuda":
            dsl = halide if name == "halide" else best(results, "tvm", backend)
            ratio = us(dsl) / us(hand) if hand and dsl else None
            label = "Halide" if name == "halide" else f"TVM ({fmt(dsl)})"
            lines.append((f"{label} ≤ {bound}× the handwritten", f"{ratio:.2f}×" if ratio else "—",
                          ratio is not None and ratio <= float(bound)))
        elif name == "halide":
            lines.append((f"Halide CPU ≤ {float(bound) / 1000:g} ms", fmt(halide),
                          halide is not None and us(halide) <= float(bound)))
        elif name == "peer":
            ratio_bound, peer_name = bound.split(":")
            peer = [r for r in results if r["variant"] == peer_name]
            ratio = us(peer[0]) / us(halide) if peer and halide else None
            lines.append((f"Halide CPU ≥ {ratio_bound}× faster than `{peer_name}`",
                          f"{ratio:.2f}× ({fmt(peer[0], marked)})" if ratio else "—",
                          ratio is not None and ratio >= float(ratio_bound)))
    return hand, halide, lines


def short(r, marked=None):
    if r is None:
        return "—"
    t = us(r)
    return f"`{r['variant']}`{mark(r, marked)} " + (f"{t:.1f} µs" if t < 1000 else f"{t / 1000:.2f} ms")


def print_verdict(rows, results):
    """The GPU rows as the README states them."""
    print("| filter | size | parameters | best handwritten | best Halide | best TVM | Halide / hand | TVM / hand "
          "| fastest peer |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    marked = {}
    for row in rows:
        if any(t.startswith("peer") for t in row["targets"]):
            continue
        found = results.get((row["filter"], row["size"], row["params"]), [])
        hand, halide, tvm = (best(found, kind, "cuda") for kind in ("handwritten", "halide", "tvm"))
        peers = [r for r in found if r["kind"] == "peer" and r["backend"] == "cuda"]

        def ratio(dsl):
            return f"{us(dsl) / us(hand):.2f}×" if hand and dsl else "—"
        print(f"| {row['filter']} | {row['size']}² | {row['params'].replace(' ', ', ') or '—'} | {short(hand)} | "
              f"{short(halide)} | {short(tvm)} | {ratio(halide)} | {ratio(tvm)} | "
              f"{short(min(peers, key=us) if peers else None, marked)} |")
    print_footnote(marked)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rows", required=True)
    ap.add_argument("--runs", required=True)
    ap.add_argument("--ncu")
    ap.add_argument("--verdict", action="store_true")
    a = ap.parse_args()
    results = read_results(a.runs)
    if a.verdict:
        print_verdict(parse_rows(a.rows), results)
        return
    print("| filter | size | parameters | best handwritten | best Halide | fastest peer | target | measured | met |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    marked = {}
    for row in parse_rows(a.rows):
        found = results.get((row["filter"], row["size"], row["params"]), [])
        hand, halide, lines = verdict(row, found, marked)
        backend = "cpu" if any(t.startswith("peer") for t in row["targets"]) else "cuda"
        peers = [r for r in found if r["kind"] == "peer" and r["backend"] == backend]
        peer = min(peers, key=us) if peers else None
        for i, (target, got, ok) in enumerate(lines):
            head = [row["filter"], f"{row['size']}²", row["params"] or "—", fmt(hand), fmt(halide),
                    fmt(peer, marked)]
            print("| " + " | ".join((head if i == 0 else [""] * 6) + [target, got, "yes" if ok else "**no**"]) + " |")
    print_footnote(marked)
    if a.ncu:
        print("\nNsight Compute, one launch of each kernel on a random image, caches flushed, clocks as they are "
              "(`scripts/ncu_summary.py`):\n")
        ncu_summary.print_markdown(a.ncu)


if __name__ == "__main__":
    main()
