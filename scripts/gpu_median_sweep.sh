#!/usr/bin/env bash
# Issue 29 on the H100, one device call: the sweeps of the median's separable
# schedules (a build with -DFILTERLAB_SWEEPS=median/cuda_sep_tile,median/cuda_sep_lanes)
# at the target rows' sizes (3x3 at 8192², 5x5 and 7x7 at 4096²), every point
# checked (quick matrix) then timed beside the default, with hw_row_pairs
# timed after each; under HL_CUDA_JIT_MAX_REGISTERS=$CAP when CAP is set (the
# Halide runtime's register cap, 64 by default).
# usage, from the repository root after unpacking the bundle:
#   [CAP=128] [SCHEDULES="cuda_sep_tile cuda_sep_lanes"] bash scripts/gpu_median_sweep.sh OUT_DIR
set -uo pipefail
o=$1
fl=${FILTERLAB_EXE:-.device-build/filterlab}
schedules=${SCHEDULES:-cuda_sep_tile cuda_sep_lanes}
[ -n "${CAP:-}" ] && export HL_CUDA_JIT_MAX_REGISTERS=$CAP
mkdir -p "$o"
echo "HL_CUDA_JIT_MAX_REGISTERS=${HL_CUDA_JIT_MAX_REGISTERS:-unset (64)}"
for row in "8192 3" "4096 5" "4096 7"; do
    set -- $row
    for s in $schedules; do
        echo "\$ filterlab sweep --filter median --schedule $s --sizes $1 -p size=$2 --quick"
        "$fl" sweep --filter median --schedule "$s" --sizes "$1" -p size="$2" --quick --min-reps 10 --min-time 0.1 \
            -q --out "$o/runs" 2>&1 | grep -E "^median|passed|failed|error"
    done
    "$fl" bench --filter median --variant hw_row_pairs --sizes "$1" -p size="$2" --min-reps 20 --min-time 0.2 -q \
        --out "$o/runs" | grep "^median"
done
