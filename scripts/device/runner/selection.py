"""Which variants a step runs, and where: the build's variants (r.listing, from
`filterlab list --json`) narrowed by the step's keys, at the rows of the rows
file, at explicit `cases` or at `sizes` (scripts/device/README.md: Where, Which)."""
import os
import random

from scripts import targets_rows  # the rows file's reader

from .experiment import per_filter, words
from .paths import ROOT


def noise_pgm(path, size, seed=1):
    """A gray PGM of uniform noise, `size` as the CLI spells it ("8192", "1920x1080"; the
    same pixels for the same seed)."""
    width, _, height = str(size).partition("x")
    width, height = int(width), int(height or width)
    rng = random.Random(seed)
    with open(path, "wb") as f:
        f.write(b"P5\n%d %d\n255\n" % (width, height))
        for _ in range(height):  # a row at a time: randbytes of a whole large image overflows
            f.write(rng.randbytes(width))


def param_args(params):
    """'a=1,b=2' -> ['-p', 'a=1', '-p', 'b=2']; '-' -> []."""
    if params in ("", "-", None):
        return []
    return [a for kv in params.split(",") for a in ("-p", kv)]


def side_of_row(row):
    """A row with a peer>= target is a CPU row (scripts/targets_rows.txt), every other a GPU row."""
    return "cpu" if "peer>=" in row.get("targets", "") else "gpu"


# ------------------------------------------------------------------ the build
def variant(r, filter_, name):
    for v in r.listing or []:
        if v["filter"] == filter_ and v["variant"] == name:
            return v
    return None


def known(r, filter_, name, log):
    if r.listing is None or variant(r, filter_, name):
        return True
    if (filter_, name) not in r.reported:
        log.write(f"not in this build, left out: {filter_}/{name}\n")
        r.reported.add((filter_, name))
    return False


def filters(r, step):
    listed = list(dict.fromkeys(v["filter"] for v in r.listing or []))
    wanted = words(step.get("filters", "all"))
    return listed if wanted in ([], ["all"]) else wanted


def keeps(r, step, v):
    """Whether variant entry v passes the step's kinds, backends, origins and skip."""
    if v is None:
        return r.listing is None
    for key, field in (("kinds", "kind"), ("backends", "backend"), ("origins", "origin")):
        if step.get(key) and v[field] not in words(step[key]):
            return False
    return f"{v['filter']}/{v['variant']}" not in words(step.get("skip"))


def side(r, filter_, name):
    v = variant(r, filter_, name)
    return None if v is None else ("cpu" if v["backend"] == "cpu" else "gpu")


# ---------------------------------------------------------------------- cases
def rows(r, step):
    """The rows file's rows the step selects: rows = all | gpu | cpu | match, filters = ..."""
    path = os.path.join(ROOT, r.exp.get("rows") or "scripts/targets_rows.txt")
    wanted = words(step.get("filters", "all"))
    out = []
    for row in targets_rows.rows(path):
        which = step.get("rows", "all")
        if which in ("gpu", "cpu") and side_of_row(row) != which:
            continue
        if wanted not in ([], ["all"]) and row["filter"] not in wanted:
            continue
        out.append(row)
    return out


def cases(r, step):
    """Where a step measures: explicit `cases` (filter size params [variant...] a line), the
    rows of the rows file (at `size` in place of their own, where given), or each of `filters`
    at `sizes` (per filter: '8192 nlmeans:1024')."""
    if step.get("cases"):
        out = []
        for line in step["cases"].splitlines():
            cells = line.split()
            if cells:
                out.append({"filter": cells[0], "size": cells[1], "params": cells[2] if len(cells) > 2 else "-",
                            "targets": "", "variants": cells[3:]})
        return out
    if step.get("sizes"):
        return [{"filter": f, "size": per_filter(step["sizes"], f), "params": "-", "targets": "", "variants": []}
                for f in filters(r, step)]
    if step.get("size"):  # the rows at another size than their own (the verdict's RGB shape)
        return [dict(row, size=step["size"]) for row in rows(r, step)]
    return rows(r, step)


def variants_at(r, step, case, log):
    """The variants a step runs at a case: `variants` = row (the row's own), all (every variant of
    the filter but sweep points), or filter/variant names (at the rows of their side)."""
    spec = words(step.get("variants", "row"))
    if spec == ["row"]:
        names = case["variants"]
    elif spec == ["all"]:
        names = [v["variant"] for v in r.listing or [] if v["filter"] == case["filter"]
                 and v["origin"] != "sweep_point"]
    else:
        names = [t.partition("/")[2] for t in spec if t.partition("/")[0] == case["filter"]]
        if case.get("targets") and step.get("rows", "match") == "match":
            names = [n for n in names if side(r, case["filter"], n) in (None, side_of_row(case))]
    out = []
    for n in names:
        if known(r, case["filter"], n, log) and keeps(r, step, variant(r, case["filter"], n)):
            out.append(n)
    return out
