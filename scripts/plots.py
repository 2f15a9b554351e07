#!/usr/bin/env python3
"""Draws the plots of `filterlab report`.

Usage: plots.py PLOTS_JSON OUT_DIR. PLOTS_JSON holds {"plots": [...]}, each
with a "kind" (loglog, bars, scaling, histograms), a "file" to write under
OUT_DIR, a title and its data, all decided by the report; this script only
draws. Exits 3 when matplotlib cannot be imported, so the report can say so.
"""
import json
import os
import sys

try:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
except ImportError:
    print("plots.py: matplotlib is not installed", file=sys.stderr)
    sys.exit(3)

# One colour per kind of variant, the same in every plot.
COLOURS = {
    "reference": "black",
    "halide_cpu": "tab:blue",
    "halide_cuda": "tab:green",
    "handwritten": "tab:red",
    "handwritten_cpu": "tab:orange",
    "halide_opencl": "tab:olive",
    "handwritten_opencl": "tab:pink",
    "peer": "tab:gray",
}
KIND_NAMES = {
    "reference": "reference",
    "halide_cpu": "Halide CPU",
    "halide_cuda": "Halide CUDA",
    "handwritten": "handwritten CUDA",
    "handwritten_cpu": "handwritten CPU",
    "halide_opencl": "Halide OpenCL",
    "handwritten_opencl": "handwritten OpenCL",
    "peer": "peer",
}
MARKERS = "os^vD<>ph*"


def loglog(ax, plot):
    for i, s in enumerate(plot["series"]):
        ax.loglog(s["x"], s["y"], marker=MARKERS[i % len(MARKERS)], color=COLOURS.get(s["group"]),
                  label=s["label"], linewidth=1.2, markersize=4)
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=7, ncol=2)


def bars(ax, plot):
    labels = [b["label"] for b in plot["bars"]]
    values = [b["value"] for b in plot["bars"]]
    ax.bar(range(len(values)), values, color=[COLOURS.get(b["group"]) for b in plot["bars"]])
    ax.set_xticks(range(len(values)), labels, rotation=60, ha="right", fontsize=7)
    for group in dict.fromkeys(b["group"] for b in plot["bars"]):  # one legend entry per kind, in order
        ax.bar([0], [0], color=COLOURS.get(group), label=KIND_NAMES.get(group, group))
    if plot.get("hline", 0) > 0:
        ax.axhline(plot["hline"], color="purple", linestyle="--", label=plot["hline_label"])
    ax.legend(fontsize=8)
    ax.grid(True, axis="y", alpha=0.3)


def scaling(ax, plot):
    top = 1
    for i, s in enumerate(plot["series"]):
        ax.plot(s["x"], s["y"], marker=MARKERS[i % len(MARKERS)], label=s["label"])
        top = max(top, max(s["x"]))
    base = min(min(s["x"]) for s in plot["series"])
    ax.plot([base, top], [1, top / base], color="black", linestyle=":", label="ideal")
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize=7)


def histograms(fig, plot):
    series = plot["series"]
    columns = min(4, len(series))
    rows = (len(series) + columns - 1) // columns
    fig.set_size_inches(3 * columns, 2.2 * rows + 0.6)
    axes = fig.subplots(rows, columns, squeeze=False, sharex=True, sharey=True)
    for ax, s in zip(axes.flat, series):
        same = s["y"] == series[0]["y"]  # the first is the reference's
        ax.fill_between(range(256), s["y"], step="mid", color="tab:blue" if same else "tab:red", alpha=0.7)
        ax.set_title(s["label"] + ("" if same else " (differs)"), fontsize=8)
    for ax in list(axes.flat)[len(series):]:
        ax.axis("off")


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: plots.py PLOTS_JSON OUT_DIR")
    with open(sys.argv[1]) as f:
        plots = json.load(f)["plots"]
    for plot in plots:
        fig = plt.figure(figsize=(7, 4.5))
        if plot["kind"] == "histograms":
            histograms(fig, plot)
        else:
            ax = fig.add_subplot()
            {"loglog": loglog, "bars": bars, "scaling": scaling}[plot["kind"]](ax, plot)
            ax.set_xlabel(plot.get("xlabel", ""))
            ax.set_ylabel(plot.get("ylabel", ""))
        fig.suptitle(plot["title"], fontsize=10)
        fig.tight_layout()
        fig.savefig(os.path.join(sys.argv[2], plot["file"]), dpi=110)
        plt.close(fig)


if __name__ == "__main__":
    main()
