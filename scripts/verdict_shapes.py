#!/usr/bin/env python3
"""The verdict over shapes (issue 54): from `filterlab bench --paths all`
runs (scripts/device/experiments/verdict_shapes.conf), each row's best
handwritten kernel against each language's best in each class, at every shape
the runs hold, and each row summarised by the geometric mean and the worst
ratio over its shapes.

A class is what a call of a DSL variant takes in a build that names it
(results.csv's path column, registry.h: shape_path): `generic` is the
library every shape takes; `aligned` what a build naming the aligned class
takes (FILTERLAB_SHAPES=aligned): the class's path where the image is in it
(its width a multiple of 64), the generic one elsewhere; `exact` what a build
naming the image's shape and the class takes: each variant's exact path, or
its most specialised other path where Halide refused the shape. A
language's best in a class is its fastest variant there; "—": none.
Peers that compute another function (status `differs`) are marked †.

usage: verdict_shapes.py RUN_DIR... [--out FILE.md] [--csv FILE.csv] [--answer]
--csv: the rows it read (every run's timed rows, the columns it uses), which it
reads back in place of the runs: what a report keeps of the runs (gzip'd when
the name ends in .gz).
--answer: only the summary as the README's answer shows it (geometric mean /
worst a class, bold within the row's target of scripts/verdict_rows.txt)."""
import argparse
import csv
import gzip
import io
import math
from collections import defaultdict
from pathlib import Path

import targets_rows

LANGUAGES = ("halide", "tvm")
KEPT = ("filter", "variant", "kind", "path", "width", "height", "channels", "params", "status", "samples", "median_us",
        "p25_us", "p75_us", "roofline_pct", "note")
CLASSES = ("generic", "aligned", "exact")
# The paths a call of each class may take, the most specialised first.
TAKES = {"generic": ("generic",), "aligned": ("aligned", "generic"), "exact": ("exact", "aligned", "generic")}


def rows_of(runs):
    """Every timed row of the runs' results.csv files (or of a --csv file)."""
    out = []
    for run in runs:
        path = Path(run) if Path(run).is_file() else Path(run) / "results.csv"
        with open_text(path, "r") as f:
            out += [r for r in csv.DictReader(f) if r["status"] in ("ok", "differs")]
    return out


def open_text(path, mode):
    """A rows file as text; gzip'd where its name ends in .gz (how reports/ keeps a large run's rows)."""
    path = Path(path)
    if path.suffix == ".gz":
        return io.TextIOWrapper(gzip.open(path, "rb"), encoding="utf-8", newline="")
    return open(path, mode, newline="")


def write_rows(rows, path):
    text = io.StringIO(newline="")
    w = csv.DictWriter(text, fieldnames=KEPT, extrasaction="ignore", lineterminator="\n")
    w.writeheader()
    w.writerows(rows)
    data = text.getvalue().encode("utf-8")
    # gzip'd with no time stamp or name, so the same rows make the same bytes.
    Path(path).write_bytes(gzip.compress(data, mtime=0) if Path(path).suffix == ".gz" else data)


def shape_of(r):
    return f"{r['width']}×{r['height']}" + (" RGB" if r["channels"] == "3" else "")


def best(rows):
    """The fastest row of `rows` (median µs), or None."""
    return min(rows, key=lambda r: float(r["median_us"]), default=None)


def cells(rows):
    """{(filter, params): {shape: {"hand", "peer", (language, class)}: row}}."""
    table = defaultdict(lambda: defaultdict(dict))
    groups = defaultdict(list)
    for r in rows:
        groups[(r["filter"], r["params"], shape_of(r))].append(r)
    for (f, params, shape), group in groups.items():
        cell = table[(f, params)][shape]
        cell["hand"] = best([r for r in group if r["kind"] == "handwritten"])
        cell["peer"] = best([r for r in group if r["kind"] == "peer"])
        # A shape the build named has an exact row of some variant (TVM refuses none); at
        # another there is no exact class ("—"), not the other classes' rows again.
        named = any(r["path"] == "exact" for r in group)
        cell["in_class"] = any(r["path"] == "aligned" for r in group)  # the image is in the aligned class
        for lang in LANGUAGES:
            by_variant = defaultdict(dict)
            for r in group:
                if r["kind"] == lang:
                    by_variant[r["variant"]][r["path"]] = r
            for cls in CLASSES:
                taken = [next((paths[p] for p in TAKES[cls] if p in paths), None) for paths in by_variant.values()]
                cell[(lang, cls)] = best([r for r in taken if r]) if cls != "exact" or named else None
    return table


def ratio(cell, key):
    hand, row = cell.get("hand"), cell.get(key)
    if not hand or not row:
        return None
    return float(row["median_us"]) / float(hand["median_us"])


def summary(values):
    """(geometric mean, worst, worst's shape) of {shape: ratio}, skipping shapes without one."""
    known = {s: v for s, v in values.items() if v is not None}
    if not known:
        return None
    worst = max(known, key=known.get)
    return math.exp(sum(math.log(v) for v in known.values()) / len(known)), known[worst], worst, len(known)


def fmt_summary(s):
    return "—" if s is None else f"{s[0]:.2f}× / {s[1]:.2f}× ({s[2]})"


def fmt_time(us):
    return f"{us / 1000:.2f} ms" if us >= 1000 else f"{us:.1f} µs"


def fmt_cell(cell, key):
    row, r = cell.get(key), ratio(cell, key)
    if row is None or r is None:
        return "—"
    return f"`{row['variant']}` {r:.2f}×"


def hand_mean(shapes):
    """The geometric mean of a row's best hand kernel over its shapes (µs), 0 where it has none."""
    hands = [float(c["hand"]["median_us"]) for c in shapes.values() if c.get("hand")]
    return math.exp(sum(map(math.log, hands)) / len(hands)) if hands else 0


def summary_table(table):
    head = ["row", "shapes", "hand (µs, geo. mean)"] + [f"{lang} {cls}" for lang in LANGUAGES for cls in CLASSES] + \
           [f"{lang} {cls} / exact" for lang in LANGUAGES for cls in ("generic", "aligned")] + \
           [f"{lang} aligned / generic (in the class)" for lang in LANGUAGES]
    lines = ["| " + " | ".join(head) + " |", "|" + " --- |" * len(head)]
    for (f, params), shapes in table.items():
        row = [f"{f} {params}", str(len(shapes)), fmt_time(hand_mean(shapes))]
        for lang in LANGUAGES:
            for cls in CLASSES:
                row.append(fmt_summary(summary({s: ratio(c, (lang, cls)) for s, c in shapes.items()})))
        for lang in LANGUAGES:
            for cls in ("generic", "aligned"):
                own = {}
                for s, c in shapes.items():
                    g, e = c.get((lang, cls)), c.get((lang, "exact"))
                    own[s] = float(g["median_us"]) / float(e["median_us"]) if g and e else None
                row.append(fmt_summary(summary(own)))
        for lang in LANGUAGES:
            gain = {}
            for s, c in shapes.items():
                g, a = c.get((lang, "generic")), c.get((lang, "aligned"))
                gain[s] = float(a["median_us"]) / float(g["median_us"]) if g and a and c.get("in_class") else None
            row.append(fmt_summary(summary(gain)))
        lines.append("| " + " | ".join(row) + " |")
    return lines


def detail_table(table):
    head = ["row", "shape", "best hand"] + [f"{lang} {cls}" for lang in LANGUAGES for cls in CLASSES] + ["fastest peer"]
    lines = ["| " + " | ".join(head) + " |", "|" + " --- |" * len(head)]
    for (f, params), shapes in table.items():
        for shape, c in shapes.items():
            hand, peer = c.get("hand"), c.get("peer")
            peer_text = "—" if not peer else \
                f"`{peer['variant']}`{'†' if peer['status'] == 'differs' else ''} {fmt_time(float(peer['median_us']))}"
            lines.append("| " + " | ".join(
                [f"{f} {params}", shape, f"`{hand['variant']}` {fmt_time(float(hand['median_us']))}" if hand else "—"]
                + [fmt_cell(c, (lang, cls)) for lang in LANGUAGES for cls in CLASSES] + [peer_text]) + " |")
    return lines


def param_set(text):
    """A row's parameters as a set of NAME=VALUE, from the rows file's `a=1,b=2` (`-`: none) or results.csv's `a=1 b=2`."""
    return frozenset(text.replace(" ", ",").split(",")) - {"", "-"}


def row_targets():
    """{(filter, its parameters as a set of NAME=VALUE): {language: target ratio}} of scripts/verdict_rows.txt."""
    out = {}
    for row in targets_rows.rows(Path(__file__).with_name("verdict_rows.txt")):
        limits = dict(t.split("<=") for t in row["targets"].split(","))
        out[(row["filter"], param_set(row["params"]))] = {k: float(v) for k, v in limits.items()}
    return out


def answer_table(table):
    """Each row's hand geometric mean and each language's best a class, `mean / worst`, in bold within its target."""
    targets = row_targets()
    head = ["row", "hand µs"] + [f"{lang} {cls}" for lang in LANGUAGES for cls in CLASSES]
    lines = ["| " + " | ".join(head) + " |", "| --- |" + " ---: |" * (len(head) - 1)]
    for (f, params), shapes in table.items():
        target = targets.get((f, param_set(params)), {})
        hand = hand_mean(shapes)
        row = [f"{f} {params}".strip(), f"{hand:.1f}" if hand else "—"]
        for lang in LANGUAGES:
            for cls in CLASSES:
                s = summary({shape: ratio(c, (lang, cls)) for shape, c in shapes.items()})
                mean = "—" if s is None else (f"**{s[0]:.2f}**" if s[0] <= target.get(lang, 0) else f"{s[0]:.2f}")
                row.append(mean if s is None else f"{mean} / {s[1]:.2f}")
        lines.append("| " + " | ".join(row) + " |")
    return lines


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("runs", nargs="+", help="bench run directories (each with results.csv), or --csv files")
    parser.add_argument("--out", type=Path, help="write the page here (default: standard output)")
    parser.add_argument("--csv", type=Path, help="also write the rows it read here")
    parser.add_argument("--answer", action="store_true", help="only the README's summary table")
    args = parser.parse_args()
    rows = rows_of(args.runs)
    if args.csv:
        write_rows(rows, args.csv)
    table = cells(rows)
    if args.answer:
        print("\n".join(answer_table(table)))
        return
    text = ["## Summary: each language's best over the best hand kernel, by class", "",
            "Geometric mean / worst ratio over the row's shapes (the worst's shape); `generic / exact`, "
            "`aligned / exact`: a language's best in that class over its own best in the exact class; `aligned / generic`: "
            "its best in the aligned class over its best generic, at the shapes in the class (width a multiple of 64).", ""] + summary_table(table) + \
           ["", "## Every shape", "", "† a peer that computes another function than the contract.", ""] + \
           detail_table(table)
    page = "\n".join(text) + "\n"
    if args.out:
        args.out.write_text(page)
    else:
        print(page, end="")


if __name__ == "__main__":
    main()
