"""The step kinds that run filterlab's own commands over the selected variants:
check, sanitize (compute-sanitizer over `filterlab check`), bench and sweep.
Each is function(runner, step, log) -> (ok, what)."""
import concurrent.futures
import os
import re
import subprocess
import sys
import tempfile
import time

from . import selection as sel
from .experiment import per_filter, words
from .paths import ROOT, sanitizer_exe


def sanitizer(tool, print_limit):
    """compute-sanitizer's command line for `tool` (memcheck with the leak check), up to the program."""
    path = sanitizer_exe()
    extra = ["--leak-check", "full"] if tool == "memcheck" else []
    return [path, "--tool", tool, *extra, "--error-exitcode", "99", "--print-limit", print_limit]


def check_targets(r, step, log):
    """(filter, variant) pairs the check step checks; variant None: the whole filter."""
    spec = words(step.get("variants", "all"))
    narrowed = any(step.get(k) for k in ("kinds", "backends", "origins"))
    if spec == ["all"] and not narrowed:
        return [(f, None) for f in sel.filters(r, step)]
    if spec in (["row"], ["all"]):
        cases = sel.rows(r, step) if spec == ["row"] else [{"filter": f, "variants": []} for f in sel.filters(r, step)]
        return list(dict.fromkeys((c["filter"], v) for c in cases for v in sel.variants_at(r, step, c, log)))
    targets = [tuple(t.split("/", 1)) for t in spec]
    return [(f, v) for f, v in targets if sel.known(r, f, v, log)]


def check(r, step, log):
    """`filterlab check` (full matrix, or `matrix` = quick | sanitizer), then each of `tools`
    (compute-sanitizer) over the sanitizer matrix."""
    matrix = {"full": [], "quick": ["--quick"], "sanitizer": ["--sanitizer-matrix"]}[step.get("matrix", "full")]
    targets = check_targets(r, step, log)
    bad = 0
    for f, v in targets:
        which = ["--filter", f] + (["--variant", v] if v else [])
        status = r.run(log, [r.fl, "check", *which, *matrix, "-q"], timeout=r.timeout(step, 150),
                       drop="cases done", tail=int(step.get("tail", 12)))
        bad += status != 0
        for tool in words(step.get("tools")):
            status = r.run(log, [*sanitizer(tool, "10"), r.fl, "check", *which, "--sanitizer-matrix", "-q"],
                           timeout=r.timeout(step, 150), grep="SUMMARY|passed|failed|rror", drop="cases done",
                           tail=6)
            bad += status != 0
    return bad == 0, f"{len(targets)} checked, {bad} failed" if targets else "nothing to check"


def sanitize_one(r, logs, job):
    """One variant under one tool into logs/FILTER.VARIANT.TOOL.log: its line of results.txt."""
    f, v, tool = job
    path = os.path.join(logs, f"{f}.{v}.{tool}.log")
    start = time.time()
    with open(path, "w") as out:
        status = subprocess.run([*sanitizer(tool, "20"), r.fl, "check", "--filter", f, "--variant", v,
                                 "--sanitizer-matrix"],
                                stdout=out, stderr=subprocess.STDOUT, env=r.env, cwd=ROOT).returncode
    text = open(path, errors="replace").read()
    found = re.findall(r"RACECHECK SUMMARY: (\d+) hazards" if tool == "racecheck"
                       else r"ERROR SUMMARY: (\d+) errors?$", text, re.M)
    cases = re.findall(r"^(\d+) passed, (\d+) failed", text, re.M)
    passed, failed = cases[-1] if cases else ("?", "?")
    return f"{f} {v} {tool} {found[-1] if found else '?'} {passed} {failed} {int(time.time() - start)} {status}"


def sanitize(r, step, log):
    """compute-sanitizer's `tools` over every CUDA variant of `filters`, `jobs` at a time, each on
    `filterlab check --sanitizer-matrix`; logs in OUT/sanitizer-logs/, a line per variant."""
    logs = os.path.join(r.out, "sanitizer-logs")
    os.makedirs(logs, exist_ok=True)
    results = os.path.join(logs, "results.txt")
    tools = words(step.get("tools", "memcheck racecheck initcheck"))
    filters = sel.filters(r, step)
    # NL-means, the slowest under the tools, first: the reverse of `filterlab list`.
    todo = [(v["filter"], v["variant"], t) for v in reversed(r.listing or [])
            if v["backend"] == "cuda" and v["origin"] != "sweep_point" and v["filter"] in filters for t in tools]
    for f, v, tool in todo:
        log.write(f"$ compute-sanitizer --tool {tool} filterlab check --filter {f} --variant {v} --sanitizer-matrix\n")
    if not r.dry:
        with concurrent.futures.ThreadPoolExecutor(int(step.get("jobs", 8))) as pool, open(results, "a") as out:
            for line in pool.map(lambda job: sanitize_one(r, logs, job), todo):
                out.write(line + "\n")
                out.flush()
    lines, bad = sanitizer_summary(results, len(tools))
    log.write("".join(l + "\n" for l in lines))
    return bad == 0, lines[-1] if lines else "nothing run"


def sanitizer_summary(results, expected):
    """One line per variant of results.txt (where a tool ran more than once, its last line)."""
    last = {}
    for line in open(results) if os.path.isfile(results) else []:
        cells = line.split()
        if len(cells) == 8:
            last.setdefault((cells[0], cells[1]), {})[cells[2]] = cells
    lines, bad = [], 0
    for (f, v), tools in last.items():
        text = ", ".join(f"{t} {c[3]} {'hazards' if t == 'racecheck' else 'errors'}" for t, c in tools.items())
        worst = any(c[3] != "0" or c[5] != "0" or c[7] != "0" for c in tools.values())
        cells = list(tools.values())[-1]
        verdict = "INCOMPLETE" if len(tools) < expected else "FAIL" if worst else "ok"
        bad += verdict != "ok"
        seconds = sum(int(c[6]) for c in tools.values())
        lines.append(f"{f + ' ' + v:<40} {text}, check {cells[4]} passed, {cells[5]} failed "
                     f"({seconds} s under the tools) {verdict}")
    lines.append(f"{len(last)} variants, {bad} with a finding, a failed case or a tool not finished")
    return lines, bad


def bench_flags(step, filter_):
    """reps, min_time (per filter), and where given `channels` (1,3) and `paths` (taken | all)."""
    flags = ["--min-reps", per_filter(step.get("reps", "20"), filter_), "--min-time",
             per_filter(step.get("min_time", "0.3"), filter_), "--quiet"]
    for key in ("channels", "paths"):
        if step.get(key):
            flags += [f"--{key}", step[key]]
    return flags


def bench_peers(r, step, log, cases, folder, env):
    """The cases' Python peers (scripts/peers_python.py --rows) into OUT/folder; their status."""
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as rows:
        for c in cases:
            rows.write(f"{c['filter']} {c['size']} {c['params']} {c['targets'] or '-'} {' '.join(c['variants'])}\n")
    sizes = ",".join(dict.fromkeys(c["size"] for c in cases))
    status = r.run(log, [sys.executable, os.path.join(ROOT, "scripts", "peers_python.py"), "--filterlab",
                         r.fl, "--out", os.path.join(r.out, folder), "--sizes", sizes, "--rows",
                         rows.name], env=env, timeout=r.timeout(step))
    os.unlink(rows.name)
    return status


def bench(r, step, log):
    """`filterlab bench` of the selected variants at each case, side by side (`threads`: at each
    thread count), into OUT/`out` (runs/); `peers` = yes: the rows' Python peers after them."""
    folder = step.get("out", "runs")
    env = r.pairs(step.get("env"))
    threads = ["--threads", step["threads"]] if step.get("threads") else []
    runs = bad = 0
    cases = sel.cases(r, step)
    for case in cases:
        vs = sel.variants_at(r, step, case, log)
        if not vs:
            continue
        cmd = [r.fl, "bench", "--filter", case["filter"], "--sizes", case["size"], *sel.param_args(case["params"]),
               *[a for v in vs for a in ("--variant", v)], *threads, *bench_flags(step, case["filter"]),
               "--out", os.path.join(r.out, folder)]
        status = r.run(log, cmd, env=env, timeout=r.timeout(step), drop="cases done",
                       tail=int(step.get("tail", 40)))
        runs += 1
        bad += status != 0
        r.keep(folder)
    if step.get("peers") == "yes" and cases:
        bad += bench_peers(r, step, log, cases, folder, env) != 0
        r.keep(folder)
    return bad == 0, f"{runs} bench runs, {bad} failed"


def sweep_schedules(r, step):
    """The `schedules` a sweep step sweeps: filter/schedule names, or `built`: every schedule
    whose points the build has (of the step's kinds, backends, origins)."""
    spec = words(step.get("schedules"))
    if spec != ["built"]:
        return spec
    every = r.listing or []
    points = [v for v in every if v["origin"] == "sweep_point"]
    return [f"{s['filter']}/{s['variant']}" for s in every if s["origin"] == "schedule" and sel.keeps(r, step, s)
            and any((p["filter"], p["backend"], p.get("source")) == (s["filter"], s["backend"], s.get("source"))
                    for p in points)]


def sweep_cases(r, step, f, s):
    """Where schedule f/s is swept: at `sizes` (its discrete parameters at their defaults), else
    at the rows of its filter and side that list it (all of them when none does)."""
    if step.get("sizes"):
        entry = sel.variant(r, f, s)
        fixed = [a for n, d in (entry or {}).get("params", {}).items() if "values" in d
                 for a in ("--param", f"{n}={d['default']}")]
        return [{"filter": f, "size": per_filter(step["sizes"], f), "params": "-", "targets": "",
                 "variants": [], "fixed": fixed}]
    side = sel.side(r, f, s)
    rows = [row for row in sel.rows(r, {**step, "filters": f, "rows": "all"})
            if side is None or sel.side_of_row(row) == side]
    return [row for row in rows if s in row["variants"]] or rows


def sweep_then(r, step, log, f, case, folder, env):
    """The row's variants of the kinds `then` names, timed after its sweep."""
    then = words(step.get("then"))
    hand = [v for v in case["variants"] if (sel.variant(r, f, v) or {}).get("kind") in then]
    if hand:
        r.run(log, [r.fl, "bench", "--filter", f, "--sizes", case["size"], *sel.param_args(case["params"]),
                    *[a for v in hand for a in ("--variant", v)],
                    *bench_flags({"reps": step.get("then_reps", "20"),
                                  "min_time": step.get("then_min_time", "0.2")}, f),
                    "--out", os.path.join(r.out, folder)], env=env, drop="cases done", tail=20)
        r.keep(folder)


def sweep(r, step, log):
    """`filterlab sweep` of each of `schedules` (filter/schedule, or `built`: every schedule whose
    points this build has, of `backends`) at the rows of its filter and side (or at `sizes`),
    every point checked (`quick`: on the quick matrix) then timed; `then` (kinds): the row's
    variants of those kinds timed after each."""
    folder = step.get("out", "runs")
    env = r.pairs(step.get("env"))
    quick = words(step.get("quick", "all"))
    runs = bad = 0
    for token in sweep_schedules(r, step):
        f, _, s = token.partition("/")
        if not sel.known(r, f, s, log):
            continue
        for case in sweep_cases(r, step, f, s):
            cmd = [r.fl, "sweep", "--filter", f, "--schedule", s, "--sizes", case["size"],
                   *sel.param_args(case["params"]), *case.get("fixed", []),
                   *(["--quick"] if "all" in quick or f in quick else []),
                   *bench_flags({"reps": "10", "min_time": "0.1", **step}, f), "--out",
                   os.path.join(r.out, folder)]
            status = r.run(log, cmd, env=env, timeout=r.timeout(step), grep=step.get("grep"),
                           drop="cases done", tail=int(step.get("tail", 60)))
            runs += 1
            bad += status != 0
            r.keep(folder)
            sweep_then(r, step, log, f, case, folder, env)
    return bad == 0, f"{runs} sweeps, {bad} failed" if runs else "nothing to sweep"


KINDS = {"check": check, "sanitize": sanitize, "bench": bench, "sweep": sweep}
