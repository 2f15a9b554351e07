#!/usr/bin/env bash
# The Python peer runner on the CPU (OpenCV from the venv; CuPy needs a GPU;
# PyTorch's peers are skipped, and say so, where torch is not installed, as in CI):
# every peer checked against the reference (none wrong), its samples written
# by `filterlab import-peers` in the bench's exact format (the same header,
# run format and context of this machine), and the run read by `filterlab
# report` as a bench run is: merged with a bench run of the same machine into
# the same tables.
# usage: tests/test_python_peers.sh PYTHON FILTERLAB
set -euo pipefail
cd "$(dirname "$0")/.."
python=$1
filterlab=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$python" scripts/peers_python.py --filterlab "$filterlab" --out "$work/runs" --sizes 64,97 --skip-gpu \
    >"$work/out" 2>"$work/log" || { cat "$work/log"; exit 1; }
run=$(tail -n 1 "$work/out")
[ -d "$run" ] || { echo "peers_python.py printed no run directory: $run"; cat "$work/out" "$work/log"; exit 1; }
"$filterlab" bench --filter median --variant reference --backend cpu --sizes 64 --min-reps 3 --min-time 0 -q \
    --out "$work/bench" >/dev/null
bench=$(ls -d "$work"/bench/*)
# Run in scripts/: python - imports from the folder it runs in, the peer runner's.
(cd scripts && "$python" - "$run" "$bench") <<'PY'
import csv, json, sys
from peers_python import PEERS
run, bench = sys.argv[1], sys.argv[2]
header = lambda d: open(f"{d}/results.csv").readline()
assert header(run) == header(bench), (header(run), header(bench))  # the bench's schema, not a copy of it
context = lambda d: json.load(open(f"{d}/results.json"))["context"]
assert context(run)["format"] == context(bench)["format"]
assert context(run)["host_name"] == context(bench)["host_name"]
assert "opencv" in context(run)["python_peers"]
rows = list(csv.DictReader(open(f"{run}/results.csv")))
expected = 2 * sum(backend == "cpu" for _, _, _, backend, _ in PEERS)
assert len(rows) == expected, f"expected {expected} rows (the CPU peers at 2 sizes), got {len(rows)}"
wrong = [r for r in rows if r["status"] == "wrong"]
assert not wrong, f"a peer that should compute the contract does not: {wrong}"
for r in rows:
    assert r["kind"] == "peer" and r["origin"] == "peer" and r["backend"] == "cpu", r
    if r["status"] == "skipped":
        assert r["variant"].startswith("py_torch") and "torch not installed" in r["note"], r
        continue
    assert int(r["samples"]) >= 3 and float(r["median_us"]) > 0, r
    assert float(r["p25_us"]) <= float(r["median_us"]) <= float(r["p75_us"]), r
median = [r for r in rows if r["variant"] == "py_cv2_median_blur" and r["width"] == "97" and r["params"] == "size=5"]
assert len(median) == 1 and median[0]["status"] == "ok", median
PY
"$filterlab" report "$bench" "$run" --out "$work/report" >/dev/null
page="$work/report/report.md"
grep -q "from 2 runs on 1 machine" "$page" || { echo "the peers run is not of the bench's machine"; exit 1; }
# In the same time table as the bench's reference (median size=3 at 64²).
# The section is read whole before it is searched: `awk | grep -q` under
# pipefail fails when grep exits first and awk is killed writing (issue 56).
median_section=$(awk '/^## median/,0' "$page")
grep -q '^| `py_cv2_median_blur` | peer |' <<<"$median_section" || {
    echo "no peer row in the tables; the page's median section and the peers' rows:"
    sed -n 1,40p <<<"$median_section"
    cat "$run/results.csv"
    exit 1
}
grep -q '^| `reference` | reference (serial CPU) |' "$page"
echo "python peers: every CPU peer's rows in the bench's format, none wrong, merged by the report with a bench run"
