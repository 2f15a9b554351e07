#!/usr/bin/env bash
# Issue 27's "behaviour unchanged" on the H100, one device call: `filterlab
# check` of every variant of every filter over the full matrix (CUDA, OpenCL
# and CPU alike), then the hand kernels whose code was reorganised timed at the
# target rows' sizes (their SASS is unchanged; this shows their times are).
# usage, from the repository root after unpacking the bundle: bash scripts/gpu_check_all.sh OUT_DIR
set -uo pipefail
o=$1
fl=${FILTERLAB_EXE:-.device-build/filterlab}
mkdir -p "$o"
filters=$("$fl" list --json | python3 -c "import json, sys; print(' '.join(dict.fromkeys(v['filter'] for v in json.load(sys.stdin)['variants'])))")
for f in $filters; do
    echo "\$ filterlab check --filter $f"
    timeout 240 "$fl" check --filter "$f" -q 2>&1 | grep -E "failed|FAIL|wrong|error" | tail -4
    echo "rc=${PIPESTATUS[0]}"
done >"$o/check_all.txt" 2>&1
{
    for row in "median 8192 size=3 hw_row_pairs hw_packed" "median 4096 size=7 hw_row_pairs hw_packed" \
               "gaussian 8192 sigma=1 hw_columns_first" "gaussian_maxpool 8192 sigma=1 hw_fused_columns_first" \
               "nlmeans 1024 patch=3 hw_symmetric"; do
        set -- $row
        f=$1 n=$2 p=$3
        shift 3
        va=()
        for v in "$@"; do va+=(--variant "$v"); done
        [ "$f" = nlmeans ] && va+=(-p search=10 -p h=10)
        echo "\$ filterlab bench --filter $f --sizes $n -p $p ${va[*]}"
        "$fl" bench --filter "$f" --sizes "$n" -p "$p" "${va[@]}" --min-reps 20 --min-time 0.3 -q --out "$o/runs" |
            grep "^$f"
    done
} >"$o/bench_hand.txt" 2>&1
rm -rf "$o/runs"
