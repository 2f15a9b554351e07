#!/usr/bin/env bash
# A sweep as a user runs it, on the CPU: the first CPU schedule whose points
# the build has (FILTERLAB_SWEEPS; CI builds box/cpu_sliding) is swept at
# two sizes; every point must pass the check and be timed; the run must be a
# bench run with sweep.json; the report must draw it and name its best point.
# Also: a variant that is not a schedule, an unknown one, and (when not swept)
# box/cuda_tile, whose points are not built, are refused with one error line. Skipped (77) when the build has no CPU sweep.
# usage: tests/test_sweep.sh FILTERLAB
set -euo pipefail
filterlab=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# swept BACKEND [FILTER SCHEDULE]: "<filter> <schedule> <points>" of the first
# schedule (or of this one) whose points the build has, from `list --json`: a
# point's origin is sweep_point and its source its schedule's; no name is parsed.
swept() {
    "$filterlab" list --json | python3 -c '
import json, sys
every, want = json.load(sys.stdin)["variants"], sys.argv[1:]
key = lambda v: (v["filter"], v["backend"], json.dumps(v["source"], sort_keys=True))
schedules = {key(v): v for v in every if v["origin"] == "schedule"}
points = [key(v) for v in every if v["origin"] == "sweep_point" and v["backend"] == want[0]]
for s in (schedules[k] for k in dict.fromkeys(points) if k in schedules):
    if want[1:] in ([], [s["filter"], s["variant"]]):
        print(s["filter"], s["variant"], points.count(key(s)))
        break' "$@"
}
point=$(swept cpu)
if [ -z "$point" ]; then
    echo "no CPU sweep built (configure with -DFILTERLAB_SWEEPS=box/cpu_sliding)"
    exit 77
fi
read -r filter schedule expected <<<"$point"

"$filterlab" sweep --filter "$filter" --schedule "$schedule" --quick --sizes 64,97 --min-reps 3 --min-time 0.01 \
    --out "$work/runs" >"$work/out" 2>"$work/err" || { cat "$work/out" "$work/err"; exit 1; }
run=$(ls -d "$work"/runs/*)
python3 - "$run" "$expected" "$schedule" <<'PY'
import csv, json, sys
run, expected, schedule = sys.argv[1], int(sys.argv[2]), sys.argv[3]
sweep = json.load(open(f"{run}/sweep.json"))
points = sweep["points"]
assert len(points) == expected, (len(points), expected)
assert all(p["check"] == "ok" for p in points), [p for p in points if p["check"] != "ok"]
rows = list(csv.DictReader(open(f"{run}/results.csv")))
timed = {r["variant"] for r in rows if r["status"] == "ok"}
wanted = {p["variant"] for p in points} | {schedule}
assert wanted <= timed, wanted - timed
assert len({r["width"] for r in rows}) == 2
defaults = {a["name"]: a["default"] for a in sweep["axes"]}
assert any(p["values"] == defaults for p in points), "the registered default is a point"
# One spelling of a point: the variant's name and the results' point column say it alike.
for r in rows:
    if r["variant"] in {p["variant"] for p in points}:
        assert r["point"] == r["variant"][r["variant"].index("[") + 1:-1], (r["variant"], r["point"])
PY
"$filterlab" report "$run" --out "$work/report" >/dev/null 2>"$work/report.err"
grep -q "### Sweep of \`$schedule\`" "$work/report/report.md"
grep -qE "Best: \`[a-z][a-z0-9_]*=-?[0-9]+(\+[a-z][a-z0-9_]*=-?[0-9]+)*\`" "$work/report/report.md"  # the one spelling
grep -q "The registered default (\`" "$work/report/report.md"
grep -q "(interquartile ranges overlapping)" "$work/report/report.md"

# Refusals: one error line each, status 1, no run directory left.
"$filterlab" sweep --filter "$filter" --schedule reference --out "$work/bad" 2>"$work/e1" && exit 1
grep -q "^filterlab: error: .*is not a schedule or frozen point (Halide.s or TVM.s): nothing to sweep" "$work/e1"
[ "$(wc -l <"$work/e1")" -eq 1 ]
[ ! -e "$work/bad" ] || [ -z "$(ls -A "$work/bad")" ]
"$filterlab" sweep --filter "$filter" --schedule no_such --out "$work/bad" 2>"$work/e2" && exit 1
grep -q "^filterlab: error: " "$work/e2"
[ "$(wc -l <"$work/e2")" -eq 1 ]
# A schedule with axes whose points this build does not have (box/cuda_tile,
# when not swept): named, with the option that builds them.
if [ -z "$(swept cuda box cuda_tile)" ]; then
    "$filterlab" sweep --filter box --schedule cuda_tile --out "$work/bad" 2>"$work/e3" && exit 1
    grep -q "^filterlab: error: no point of box/cuda_tile is built: configure with -DFILTERLAB_SWEEPS=box/cuda_tile (its axes) or box/cuda_tile:max_registers" \
        "$work/e3"
fi
[ ! -e "$work/bad" ] || [ -z "$(ls -A "$work/bad")" ]
echo "sweep: $expected points of $filter/$schedule checked, timed and drawn"
