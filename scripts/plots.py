#!/usr/bin/env python3
"""Draws the plots of `filterlab report`.

Usage: plots.py PLOTS_JSON OUT_DIR. PLOTS_JSON holds {"plots": [...]}, each
with a "kind" (loglog, bars, grouped, scaling, histograms, sweep), a "file" to write under
OUT_DIR, a title and its data, all decided by the report; this script only
draws. Exits 3 when matplotlib cannot be imported, so the report can say so.
"""
import io
import json
import os
import sys

try:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from PIL import Image  # matplotlib's own dependency
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
    "tvm_cuda": "tab:purple",
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
    "tvm_cuda": "TVM CUDA",
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


def grouped(ax, plot):
    """Bars side by side per group, one series each, on a log scale (0: absent)."""
    groups, series = plot["groups"], plot["series"]
    width = 0.8 / max(len(series), 1)
    for i, s in enumerate(series):
        xs = [g + (i - (len(series) - 1) / 2) * width for g in range(len(groups))]
        ax.bar(xs, [v if v > 0 else float("nan") for v in s["values"]], width, color=COLOURS.get(s["group"]),
               label=s["label"])
    ax.set_yscale("log")
    ax.set_xticks(range(len(groups)), groups, rotation=60, ha="right", fontsize=7)
    ax.grid(True, axis="y", which="both", alpha=0.3)
    ax.legend(fontsize=8)


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


def sweep_cell_text(cell):
    mark = "★" if cell["best"] else "●" if cell["near"] else ""
    return f"{cell['median_us']:.4g}{mark}"


def sweep_heatmap(ax, axes, cells, fixed):
    """One heatmap of the first two axes, the others held at `fixed`."""
    xs, ys = axes[0]["values"], axes[1]["values"]
    grid = [[float("nan")] * len(xs) for _ in ys]
    text = [[""] * len(xs) for _ in ys]
    for c in cells:
        v = c["values"]
        if any(v[k] != fixed[k] for k in fixed):
            continue
        i, j = ys.index(v[axes[1]["name"]]), xs.index(v[axes[0]["name"]])
        grid[i][j] = c["median_us"]
        text[i][j] = sweep_cell_text(c)
    image = ax.imshow(grid, cmap="viridis_r", origin="lower", aspect="auto")
    for i in range(len(ys)):
        for j in range(len(xs)):
            ax.text(j, i, text[i][j], ha="center", va="center", fontsize=7, color="white")
    defaults = {a["name"]: a["default"] for a in axes}
    if all(defaults[k] == fixed[k] for k in fixed):  # the registered default: a square
        ax.add_patch(plt.Rectangle((xs.index(defaults[axes[0]["name"]]) - 0.5, ys.index(defaults[axes[1]["name"]]) - 0.5),
                                   1, 1, fill=False, edgecolor="red", linewidth=2))
    ax.set_xticks(range(len(xs)), xs)
    ax.set_yticks(range(len(ys)), ys)
    ax.set_xlabel(axes[0]["name"])
    ax.set_ylabel(axes[1]["name"])
    if fixed:
        ax.set_title(", ".join(f"{k}={v}" for k, v in fixed.items()), fontsize=8)
    return image


def sweep(fig, plot):
    """A line for one axis, a heatmap for two, small multiples for more."""
    axes, cells = plot["axes"], plot["cells"]
    if len(axes) == 1:
        ax = fig.add_subplot()
        name = axes[0]["name"]
        points = sorted((c["values"][name], c["median_us"], c) for c in cells)
        ax.plot([p[0] for p in points], [p[1] for p in points], marker="o")
        for x, y, c in points:
            ax.annotate(sweep_cell_text(c), (x, y), fontsize=7)
        ax.axvline(axes[0]["default"], color="red", linestyle=":", label="registered default")
        ax.set_xscale("log", base=2)
        ax.set_xlabel(name)
        ax.set_ylabel("median µs")
        ax.legend(fontsize=7)
        return
    others = axes[2:]
    combos = [{}]
    for a in others:
        combos = [dict(c, **{a["name"]: v}) for c in combos for v in a["values"]]
    columns = min(3, len(combos))
    rows = (len(combos) + columns - 1) // columns
    fig.set_size_inches(max(6, 3.6 * columns), 3.2 * rows + 0.8)
    grid = fig.subplots(rows, columns, squeeze=False)
    for ax, fixed in zip(grid.flat, combos):
        image = sweep_heatmap(ax, axes, cells, fixed)
    for ax in list(grid.flat)[len(combos):]:
        ax.axis("off")
    fig.colorbar(image, ax=grid.ravel().tolist(), label="median µs", shrink=0.8)


def save(fig, path):
    """Writes the figure as a PNG of 256 colours at most: a third of the bytes, the same picture to the eye."""
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=110)
    buffer.seek(0)
    Image.open(buffer).convert("RGB").quantize(256).save(path, optimize=True)


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: plots.py PLOTS_JSON OUT_DIR")
    with open(sys.argv[1]) as f:
        plots = json.load(f)["plots"]
    for plot in plots:
        fig = plt.figure(figsize=(7, 4.5))
        if plot["kind"] == "histograms":
            histograms(fig, plot)
        elif plot["kind"] == "sweep":
            sweep(fig, plot)
        else:
            ax = fig.add_subplot()
            {"loglog": loglog, "bars": bars, "grouped": grouped, "scaling": scaling}[plot["kind"]](ax, plot)
            ax.set_xlabel(plot.get("xlabel", ""))
            ax.set_ylabel(plot.get("ylabel", ""))
        fig.suptitle(plot["title"], fontsize=10)
        if plot["kind"] != "sweep":  # the sweep's colour bar is placed by hand
            fig.tight_layout()
        save(fig, os.path.join(sys.argv[2], plot["file"]))
        plt.close(fig)


if __name__ == "__main__":
    main()
