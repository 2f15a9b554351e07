#!/usr/bin/env bash
# The Python peer runner on the CPU (OpenCV from the venv; CuPy needs a GPU):
# every peer checked against the reference (none wrong), the run directory
# read by `filterlab report`.
# usage: tests/test_python_peers.sh PYTHON FILTERLAB
set -euo pipefail
cd "$(dirname "$0")/.."
python=$1
filterlab=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$python" scripts/peers_python.py --filterlab "$filterlab" --out "$work" --sizes 64,97 --skip-gpu 2>"$work/log"
run=$(ls -d "$work"/run-python-peers-*)
rows=$(tail -n +2 "$run/results.csv" | wc -l)
[ "$rows" -eq 16 ] || { echo "expected 16 rows (8 CPU peers at 2 sizes), got $rows"; cat "$work/log"; exit 1; }
if grep -q ",wrong," "$run/results.csv"; then
    echo "a peer that should compute the contract does not:"; grep ",wrong," "$run/results.csv"; exit 1
fi
grep -q "^median,py_cv2_median_blur,cpu,peer,97,97,1,size=5,ok," "$run/results.csv"
"$filterlab" report "$run" --out "$work/report" >/dev/null
grep -q "py_cv2_median_blur" "$work/report/report.md"
echo "python peers: 16 rows, none wrong, read by the report"
