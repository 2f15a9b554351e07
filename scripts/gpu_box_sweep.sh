#!/usr/bin/env bash
# Issue 28 on the H100, one device call: the sweep of box/cuda_sums_strips
# (a build with -DFILTERLAB_SWEEPS=box/cuda_sums_strips) at 8192² for r = 1, 7
# and 15 — every point checked (quick matrix), then timed beside the default —
# with the hand kernel of the same algorithm timed after each.
# usage, from the repository root after unpacking the bundle: bash scripts/gpu_box_sweep.sh OUT_DIR
set -uo pipefail
o=$1
fl=${FILTERLAB_EXE:-.device-build/filterlab}
mkdir -p "$o"
for r in 1 7 15; do
    echo "\$ filterlab sweep --filter box --schedule cuda_sums_strips --sizes 8192 -p radius=$r --quick"
    "$fl" sweep --filter box --schedule cuda_sums_strips --sizes 8192 -p radius=$r --quick --min-reps 20 \
        --min-time 0.3 -q --out "$o/runs" | grep -E "^box|passed|failed"
    echo "\$ filterlab bench --filter box --variant hw_running_sums --sizes 8192 -p radius=$r"
    "$fl" bench --filter box --variant hw_running_sums --sizes 8192 -p radius=$r --min-reps 20 --min-time 0.3 -q \
        --out "$o/runs" | grep -E "^box"
done
